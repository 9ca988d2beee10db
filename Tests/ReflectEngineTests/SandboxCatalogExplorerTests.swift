import Foundation
import Testing
import ReflectCore
@testable import ReflectEngine
@testable import ReflectAuthoring

// Issue 11, class 7 (catalog identity and isolation) and class 4 (the
// explorer's overall budget, and no backtracking regex over flow source).

/// A throwaway content root with the repository's English locale.
private struct Content {
    let root: URL
    init(_ files: [String: String]) throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("reflect-catalog-\(UUID().uuidString)")
        var files = files
        files["locales/en.yaml"] = try String(contentsOf: repositoryRoot.appendingPathComponent("locales/en.yaml"), encoding: .utf8)
        for (path, text) in files {
            let url = root.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try text.write(to: url, atomically: true, encoding: .utf8)
        }
    }
    var catalog: FlowCatalog { FlowCatalog(root: ContentRoot(root)) }
    var library: ContentLibrary { ContentLibrary(root: ContentRoot(root)) }
    func remove() { try? FileManager.default.removeItem(at: root) }
}

private let good = #"return flow { id = "calm.good", version = 1, title = "Good", moods = { "bad" }, run = function(s) s:ask { id = "q", text = "Hi" } end }"#

@Suite("Issue 11 class 7: the catalog reads ids without running flows; duplicates are errors", .hangGuard)
struct CatalogIsolationTests {
    @Test("a second file declaring an existing id is an error naming both files, for lookup and listing")
    func duplicateIDs() throws {
        let content = try Content([
            "flows/calm/good.lua": good,
            "flows/zz/impostor.lua": #"return flow { id = "calm.good", version = 9, run = function(s) s:ask { id = "x", text = "Gotcha" } end }"#,
            "flows/other.lua": #"return flow { id = "other.one", version = 1, run = function(s) s:ask { id = "x", text = "X" } end }"#,
        ])
        defer { content.remove() }
        for lookup in [{ try content.catalog.source(for: "calm.good") }, { try content.catalog.source(for: "calm", mood: .bad) }] {
            let e = try #require(throws: EngineError.self) { _ = try lookup() }
            #expect(e.code == "flow.invalid")
            #expect(e.message.contains("flows/calm/good.lua") && e.message.contains("flows/zz/impostor.lua"))
        }
        #expect(try content.catalog.source(for: "other.one").name == "flows/other.lua", "unrelated ids still resolve")
        let listed = content.catalog.all()
        let impostor = try #require(listed.first { $0.name == "flows/zz/impostor.lua" })
        guard case .failure(let e) = impostor.result else { Issue.record("the duplicate must be listed as an error"); return }
        #expect(e.message.contains("also declared in flows/calm/good.lua"))
    }

    @Test("hostile top levels do not affect listing or lookup of other flows", arguments: [
        "while true do end\n",
        "local t = {} while true do t[#t + 1] = string.rep('x', 1000) end\n",
        "error(setmetatable({}, { __tostring = function() while true do end end }))\n",
        "local s = string.rep('a', 2^31)\n",
    ])
    func hostileTopLevel(prefix: String) throws {
        let content = try Content([
            "flows/calm/good.lua": good,
            // Literal id: listed without running its top level.
            "flows/bad/literal.lua": prefix + #"return flow { id = "bad.literal", version = 1, run = function(s) end }"#,
            // Computed id: run in its own state, its failure reported for itself only.
            "flows/bad/computed.lua": prefix + #"return flow { id = "bad." .. "computed", version = 1, run = function(s) end }"#,
        ])
        defer { content.remove() }
        let started = Date()
        #expect(try content.catalog.source(for: "calm.good").name == "flows/calm/good.lua")
        #expect(try content.catalog.source(for: "calm", mood: .bad).name == "flows/calm/good.lua")
        let listed = Dictionary(uniqueKeysWithValues: content.catalog.all().map { ($0.name, $0.result) })
        guard case .success(let flow)? = listed["flows/calm/good.lua"], case .success(let literal)? = listed["flows/bad/literal.lua"],
              case .failure(let broken)? = listed["flows/bad/computed.lua"] else {
            Issue.record("unexpected listing \(listed)")
            return
        }
        #expect(flow.title == "Good" && flow.moods == [.bad])
        #expect(literal.id == "bad.literal")
        #expect(broken.file == "flows/bad/computed.lua")
        #expect(Date().timeIntervalSince(started) < 10)
    }

    @Test("looking up a literal id runs no other file: twelve looping top levels with computed ids cost nothing")
    func lookupRunsNothing() throws {
        var files = ["flows/calm/good.lua": good]
        for i in 1...12 {
            files["flows/bad/loop\(i).lua"] = "while true do end\nreturn flow { id = 'bad.' .. 'loop\(i)', version = 1, run = function(s) end }"
        }
        let content = try Content(files)
        defer { content.remove() }
        let started = Date()
        #expect(try content.catalog.source(for: "calm.good").name == "flows/calm/good.lua")
        #expect(try content.catalog.source(for: "calm", mood: .bad).name == "flows/calm/good.lua")
        // Each looping file would take its 0.5 s budget if it were run.
        #expect(Date().timeIntervalSince(started) < 4)
    }

    @Test("a computed id is still found (by running that file alone)")
    func computedAndMismatched() throws {
        let content = try Content([
            "flows/calm/computed.lua": #"local p = "calm" return flow { id = p .. ".computed", version = 1, run = function(s) s:ask { id = "q", text = "Hi" } end }"#,
        ])
        defer { content.remove() }
        #expect(try content.catalog.source(for: "calm.computed").name == "flows/calm/computed.lua")
    }
}

@Suite("Issue 11 class 4: reflect check has an overall budget and scans source linearly", .hangGuard)
struct ExplorerBudgetTests {
    private func long(_ steps: Int, work: Int = 0) -> FlowSource {
        source("flows/test/long.lua", """
            return flow { id = "test.long", version = 1, run = function(s)
              for i = 1, \(steps) do
                s:ask { id = "q" .. i, text = "Again?" }
                for k = 1, \(work) do end
              end
              s:ask { id = "never", text = "Unreached when the budget runs out" }
            end }
            """)
    }

    @Test("the step budget (answers plus replays) stops exploring with R012, and no false R009")
    func stepBudget() throws {
        let explorer = FlowExplorer(runs: 60, budget: .init(steps: 300, seconds: 60))
        let report = explorer.explore(long(390), language: try english())
        #expect(report.exhausted)
        #expect(report.runs < 60)
        #expect(report.diagnostics.map(\.code.rawValue) == ["R012"])
        #expect(report.diagnostics.first?.message.contains("300 steps") == true)
        #expect(report.diagnostics.first?.severity == .warning)
    }

    @Test("the time budget cancels a slow exploration (each step a tenth of a second, many replays)")
    func timeBudget() throws {
        let started = Date()
        let explorer = FlowExplorer(runs: 60, budget: .init(steps: 1_000_000, seconds: 1))
        let report = explorer.explore(long(300, work: 2_000_000), language: try english())
        #expect(Date().timeIntervalSince(started) < 10)
        #expect(report.exhausted)
        #expect(report.diagnostics.map(\.code.rawValue) == ["R012"])
    }

    @Test("the check's overall budget: files it cannot reach are reported, not checked")
    func overallBudget() throws {
        let content = try Content(["flows/a.lua": good, "flows/b.lua": good.replacingOccurrences(of: "calm.good", with: "calm.other")])
        defer { content.remove() }
        let diagnostics = ContentChecker(library: content.library, totalSeconds: 0).run().filter { $0.code.rawValue.hasPrefix("R") }
        #expect(diagnostics.map(\.code.rawValue) == ["R012", "R012"])
        #expect(diagnostics.map(\.file) == ["flows/a.lua", "flows/b.lua"])
    }

    @Test("declared steps: a linear scan of tokens, not a regex", arguments: [
        String(repeating: "s:ask { text = 'x', ", count: 60_000),
        String(repeating: "s:ask { ", count: 100_000) + "id = \"deep\"",
        String(repeating: "--[[ s:ask { id = \"c\" } ]] \"", count: 50_000),
    ])
    func declaredStepsLinear(hostile: String) {
        let started = Date()
        _ = FlowExplorer.declaredSteps(in: hostile)
        _ = FlowCatalog.summaryHeader(hostile)
        #expect(Date().timeIntervalSince(started) < 10)
    }

    @Test("declared steps: what the flow's prompt tables say literally, with lines; comments and strings are not code")
    func declaredStepsMeaning() {
        let text = """
            -- s:ask { id = "commented" }
            local note = "s:ask { id = 'quoted' }"
            s:ask { id = "a", text = "A" }
            s:choose({ text = "B",
              options = { { id = "opt", text = "O" } }, id = "b" })
            s:message { text = "M", id = "m" .. i }
            """
        #expect(FlowExplorer.declaredSteps(in: text).map { "\($0.0):\($0.1)" } == ["a:3", "b:5"])
    }
}

extension FlowCatalog {
    /// For the linearity test: the header scan over arbitrary text.
    static func summaryHeader(_ text: String) -> FlowSourceScanner.Header { FlowSourceScanner(text).header }
}
