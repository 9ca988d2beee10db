// swift-tools-version:6.1
import PackageDescription

// Layering (arrows point one way):
//   ReflectCore (pure: no Lua, no SQL)
//   LuaHost -> CLuaSandbox -> CLua (liblua5.4)
//   ReflectEngine (the embeddable runtime: content, flows, sessions) -> ReflectCore, LuaHost
//   ReflectAuthoring (check, explorer, transcript tests, diagnostics) -> ReflectEngine, ReflectTranslation
//   ReflectTranslation (locale status, PO, XLIFF, confirm) -> ReflectEngine
//   ReflectStore (SQLite through GRDB) -> ReflectCore
//   ReflectStoreJournal (sessions journalled into the store) -> ReflectEngine, ReflectStore
//   reflect (CLI) -> all of the above, and CLibedit (Debian's libedit, the terminal line editor)
// The runtime does not depend on GRDB: an app embeds ReflectEngine with a
// journal of its own, or ReflectStoreJournal for the SQLite default.
let package = Package(
    name: "Reflect",
    platforms: [.macOS(.v14), .iOS(.v17)],
    products: [
        .executable(name: "reflect", targets: ["reflect"]),
        .library(name: "ReflectEngine", targets: ["ReflectEngine"]),
        .library(name: "ReflectStoreJournal", targets: ["ReflectStoreJournal"]),
        .library(name: "ReflectAuthoring", targets: ["ReflectAuthoring"]),
        .library(name: "ReflectTranslation", targets: ["ReflectTranslation"]),
        .library(name: "LuaHost", targets: ["LuaHost"]),
        .library(name: "ReflectCore", targets: ["ReflectCore"]),
    ],
    dependencies: [
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    ],
    targets: [
        // Debian's liblua5.4 through pkg-config, plus a header for the API's macros.
        .systemLibrary(
            name: "CLua",
            pkgConfig: "lua5.4",
            providers: [.apt(["liblua5.4-dev"])]
        ),
        // The C half of the sandbox: everything that must raise Lua errors or
        // run inside Lua's protected world (allocator cap, count hook,
        // trampoline, message handler, value codec, wrapped built-ins).
        .target(name: "CLuaSandbox", dependencies: ["CLua"]),
        // Debian's libedit (BSD editline): the terminal line editor of `reflect`.
        .systemLibrary(
            name: "CLibedit",
            pkgConfig: "libedit",
            providers: [.apt(["libedit-dev"])]
        ),
        .target(name: "LuaHost", dependencies: ["CLuaSandbox"]),
        .target(name: "ReflectCore"),
        .target(name: "ReflectStore", dependencies: [
            "ReflectCore",
            .product(name: "GRDB", package: "GRDB.swift"),
            // SQLite's C API, for the durable answer write's direct binding.
            .product(name: "GRDBSQLite", package: "GRDB.swift"),
        ]),
        .target(name: "ReflectEngine", dependencies: [
            "ReflectCore", "LuaHost",
            .product(name: "Yams", package: "Yams"),
        ]),
        .target(name: "ReflectAuthoring", dependencies: ["ReflectEngine", "ReflectTranslation", "ReflectCore", "LuaHost",
                                                        .product(name: "Yams", package: "Yams")]),
        .target(name: "ReflectTranslation", dependencies: ["ReflectEngine", "ReflectCore",
                                                          .product(name: "Yams", package: "Yams")]),
        .target(name: "ReflectStoreJournal", dependencies: ["ReflectEngine", "ReflectCore", "ReflectStore"]),
        // libcurl loaded at its first use (see include/CLazyCurl.h).
        .target(name: "CLazyCurl"),
        // The release `reflect` links the Swift runtime and Foundation
        // statically on Linux: resolving their ~20,000 symbols across a dozen
        // shared libraries was a third of a start (BENCHMARKS.md, time to
        // first prompt). The compile flag makes the module's autolink entries
        // name the static libraries' own dependencies, except libcurl: its
        // functions come from CLazyCurl, which loads it only when a text
        // generation server is used. libxml2 stays a shared library.
        // Debug builds and the tests link as before.
        .executableTarget(name: "reflect", dependencies: [
            "ReflectEngine", "ReflectStore", "ReflectStoreJournal", "ReflectAuthoring", "ReflectTranslation", "CLibedit", "CLazyCurl",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ], swiftSettings: [.unsafeFlags(["-static-stdlib", "-Xfrontend", "-disable-autolink-library", "-Xfrontend", "curl"],
                                        .when(platforms: [.linux], configuration: .release))],
           linkerSettings: [.unsafeFlags(["-static-stdlib"], .when(platforms: [.linux], configuration: .release))]),
        // Workloads mirroring bench/anchors, measured under callgrind (docs/sandbox.md).
        .executableTarget(name: "reflect-bench", dependencies: ["LuaHost", "ReflectCore", "ReflectEngine", "ReflectStore",
                                                           "ReflectStoreJournal"]),
        .testTarget(name: "LuaHostTests", dependencies: ["LuaHost"]),
        .testTarget(name: "ReflectCoreTests", dependencies: ["ReflectCore"]),
        .testTarget(name: "ReflectEngineTests", dependencies: ["ReflectEngine", "LuaHost", "ReflectAuthoring",
                                                             "ReflectTranslation", "ReflectStoreJournal", "ReflectStore",
                                                             "LoopbackHTTP"]),
        // Test support: an SQLite VFS that counts syncs per file (docs/storage.md).
        .target(name: "CSQLiteSyncCounter", path: "Tests/CSQLiteSyncCounter",
                linkerSettings: [.linkedLibrary("sqlite3")]),
        .testTarget(name: "ReflectStoreTests", dependencies: ["ReflectStore", "CSQLiteSyncCounter"]),
        // Test support: a real HTTP server on the loopback interface (docs/generation.md).
        .target(name: "LoopbackHTTP", path: "Tests/LoopbackHTTP"),
        .testTarget(name: "CLITests", dependencies: ["reflect", "ReflectCore", "ReflectStore", "LoopbackHTTP", .product(name: "GRDB", package: "GRDB.swift")]),
    ]
)
