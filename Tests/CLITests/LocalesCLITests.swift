import Foundation
import Testing

/// Issue 5's must-shows through `reflect locales`, with the translators' own
/// tools: gettext's msgfmt and translate-toolkit's po2xliff (Debian packages
/// gettext and translate-toolkit; scripts/test installs them).
@Suite("reflect locales", .hangGuard)
struct LocalesCLITests {
    static let translations = ["de", "es", "fr", "ja", "ko", "pt-BR"]

    /// A copy of the repository's content to change freely.
    func copy() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("reflect-cli-content-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        for sub in ["flows", "locales", "personalities"] {
            try FileManager.default.copyItem(at: repositoryRoot.appendingPathComponent(sub), to: dir.appendingPathComponent(sub))
        }
        return dir
    }

    func tool(_ name: String) throws -> String {
        for dir in ["/usr/bin", "/usr/local/bin"] where FileManager.default.isExecutableFile(atPath: "\(dir)/\(name)") {
            return "\(dir)/\(name)"
        }
        Issue.record("\(name) is not installed: apt-get install gettext translate-toolkit (scripts/test does this)")
        throw CancellationError()
    }

    func shell(_ path: String, _ args: [String]) throws -> (Int32, String) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: path)
        p.arguments = args
        let out = Pipe()
        p.standardOutput = out
        p.standardError = out
        try p.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return (p.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    @Test("every exported PO passes msgfmt -c")
    func msgfmt() throws {
        let msgfmt = try tool("msgfmt")
        for tag in Self.translations {
            let po = FileManager.default.temporaryDirectory.appendingPathComponent("reflect-\(tag)-\(UUID().uuidString).po").path
            let out = try CLIRunner.run(["locales", "export", "--format", "po", tag, "--out", po], in: repositoryRoot)
            #expect(out.status == 0, "\(out.stderr)")
            let (status, log) = try shell(msgfmt, ["-c", "-o", "/dev/null", po])
            #expect(status == 0, "\(tag): \(log)")
            #expect(!log.contains("warning"), "\(tag): \(log)")
        }
    }

    @Test("a PO converted with po2xliff imports back with the same strings")
    func po2xliffRoundTrip() throws {
        let po2xliff = try tool("po2xliff")
        let content = try copy()
        for tag in Self.translations {
            let file = content.appendingPathComponent("locales/\(tag).yaml")
            let before = try String(contentsOf: file, encoding: .utf8)
            let po = FileManager.default.temporaryDirectory.appendingPathComponent("reflect-\(tag)-\(UUID().uuidString).po").path
            let xlf = po.replacingOccurrences(of: ".po", with: ".xlf")
            #expect(try CLIRunner.run(["locales", "export", "--format", "po", tag, "--out", po, "--content", content.path]).status == 0)
            let (status, log) = try shell(po2xliff, [po, xlf])
            #expect(status == 0, "\(log)")
            let imported = try CLIRunner.run(["locales", "import", xlf, "--locale", tag, "--content", content.path])
            #expect(imported.status == 0, "\(imported.stderr)")
            #expect(imported.stdout.contains(" 0 updated,"), "\(tag): \(imported.stdout)")
            #expect(try String(contentsOf: file, encoding: .utf8) == before, "\(tag): the XLIFF from po2xliff changed strings")
        }
        // And a real change made in the XLIFF arrives in the YAML.
        let po = FileManager.default.temporaryDirectory.appendingPathComponent("reflect-de-\(UUID().uuidString).po").path
        let xlf = po.replacingOccurrences(of: ".po", with: ".xlf")
        _ = try CLIRunner.run(["locales", "export", "--format", "po", "de", "--out", po, "--content", content.path])
        _ = try shell(po2xliff, [po, xlf])
        let edited = try String(contentsOf: URL(fileURLWithPath: xlf), encoding: .utf8)
            .replacingOccurrences(of: "0 = gar nicht, 10 = so stark wie nur möglich", with: "0 = überhaupt nicht, 10 = maximal")
        try edited.write(toFile: xlf, atomically: true, encoding: .utf8)
        let imported = try CLIRunner.run(["locales", "import", xlf, "--locale", "de", "--content", content.path])
        #expect(imported.stdout.contains(" 1 updated,"), "\(imported.stdout)")
        #expect(try String(contentsOf: content.appendingPathComponent("locales/de.yaml"), encoding: .utf8).contains("0 = überhaupt nicht, 10 = maximal"))
    }

    @Test("editing one English question: exactly that key is stale in all six locales; confirming it in one clears it there only")
    func staleThroughStatus() throws {
        let content = try copy()
        let en = content.appendingPathComponent("locales/en.yaml")
        let text = try String(contentsOf: en, encoding: .utf8)
        try text.replacingOccurrences(of: "Can you think of one counter-example to '%@'?", with: "Can you name one counter-example to '%@'?")
            .write(to: en, atomically: true, encoding: .utf8)
        func stale() throws -> [String: [String]] {
            let out = try CLIRunner.run(["locales", "status", "--format", "json", "--content", content.path])
            #expect(out.status == 0, "\(out.stderr)")
            let reports = try #require(try JSONSerialization.jsonObject(with: Data(out.stdout.utf8)) as? [[String: Any]])
            return Dictionary(uniqueKeysWithValues: reports.map { ($0["locale"] as? String ?? "?", $0["stale"] as? [String] ?? []) })
        }
        let key = "reflection.negative.q3.overgeneralization"
        #expect(try stale() == Dictionary(uniqueKeysWithValues: Self.translations.map { ($0, [key]) }))
        let confirmed = try CLIRunner.run(["locales", "confirm", "ko", key, "--content", content.path])
        #expect(confirmed.status == 0, "\(confirmed.stderr)")
        var expected = Dictionary(uniqueKeysWithValues: Self.translations.map { ($0, [key]) })
        expected["ko"] = []
        #expect(try stale() == expected)
        let status = try CLIRunner.run(["locales", "status", "fr", "--content", content.path])
        // Every other string stays translated (the count grows as features add strings).
        let strings = try String(contentsOf: en, encoding: .utf8).components(separatedBy: "\n")
            .drop { $0 != "strings:" }.dropFirst().prefix { !$0.hasPrefix("probe:") }
            .filter { $0.hasPrefix("  ") && !$0.hasPrefix("  #") && $0.contains(":") }.count
        #expect(status.stdout.contains("fr (locales/fr.yaml): \(strings - 1) translated, 0 missing, 1 stale, 0 unconfirmed, 0 broken"), "\(status.stdout)")
        #expect(status.stdout.contains("stale: \(key)"))
    }

    @Test("a translation missing its %@ fails locales check, naming the file and key")
    func checkFails() throws {
        let content = try copy()
        let ja = content.appendingPathComponent("locales/ja.yaml")
        let text = try String(contentsOf: ja, encoding: .utf8)
        let line = try #require(text.split(separator: "\n").first { $0.contains("reflection.negative.q5:") })
        try text.replacingOccurrences(of: String(line), with: String(line).replacingOccurrences(of: "「%@」", with: "その考え"))
            .write(to: ja, atomically: true, encoding: .utf8)
        let out = try CLIRunner.run(["locales", "check", "--content", content.path])
        #expect(out.status == 1)
        #expect(out.stdout.contains("locales/ja.yaml:"))
        #expect(out.stdout.contains("error L002: 'reflection.negative.q5' (ja): "), "\(out.stdout)")
        let clean = try CLIRunner.run(["locales", "check"], in: repositoryRoot)
        #expect(clean.status == 0, "\(clean.stdout)")
    }
}
