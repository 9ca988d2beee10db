import Foundation
import Testing
import ReflectEngine
@testable import ReflectAuthoring

/// `docs/diagnostics/` is the catalog of `reflect check` codes: one page per
/// code, in the format docs/diagnostics/README.md states (title, severity,
/// an example as input and output, the fix). The pages and `DiagnosticCode`
/// cannot drift apart.
@Suite("Diagnostic pages")
struct DiagnosticPagesTests {
    static let directory = repositoryRoot.appendingPathComponent("docs/diagnostics")

    /// A file the example writes into an otherwise minimal content
    /// directory (the repository's `locales/en.yaml` and nothing else).
    struct ExampleFile {
        var path: String
        var text: String
    }

    /// A page, parsed: its title code, severity line, the example's input
    /// files and the output lines they must produce.
    struct Page {
        var code: String
        var severity: String
        var inputs: [ExampleFile]
        var output: [String]

        init(_ text: String, file: String) throws {
            let lines = text.components(separatedBy: "\n")
            let title = try #require(lines.first, "\(file) is empty")
            code = String(title.dropFirst(2).prefix { $0 != ":" })
            let severityLine = try #require(lines.first { $0.hasPrefix("Severity: ") }, "\(file): no 'Severity:' line")
            severity = String(severityLine.dropFirst("Severity: ".count).prefix { $0.isLetter })
            let example = try #require(text.range(of: "\n## Example\n"), "\(file): no '## Example' section")
            let fix = try #require(text.range(of: "\n## Fix\n"), "\(file): no '## Fix' section")
            // Fenced blocks alternate with prose: odd pieces are blocks.
            let blocks = text[example.upperBound..<fix.lowerBound].components(separatedBy: "```").enumerated()
                .filter { $0.offset % 2 == 1 }.map(\.element)
            try #require(blocks.count >= 2, "\(file): the example is one or more input files, then the output")
            inputs = []
            for block in blocks.dropLast() {
                let info = block.prefix { $0 != "\n" }.split(separator: " ")
                try #require(info.count == 2, "\(file): an input block's info string is `lang path` (```lua flows/x.lua)")
                inputs.append(ExampleFile(path: String(info[1]), text: String(block.drop { $0 != "\n" }.dropFirst())))
            }
            let last = try #require(blocks.last)
            try #require(!last.hasPrefix("lua") && !last.hasPrefix("yaml"), "\(file): the last block is the output")
            output = last.split(separator: "\n").map(String.init).filter { !$0.isEmpty }
        }
    }

    func pages() throws -> [String: Page] {
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.directory.path).filter { $0.hasSuffix(".md") && $0 != "README.md" }
        var out: [String: Page] = [:]
        for file in files {
            out[String(file.dropLast(3))] = try Page(String(contentsOf: Self.directory.appendingPathComponent(file), encoding: .utf8),
                                                     file: "docs/diagnostics/\(file)")
        }
        return out
    }

    @Test("every DiagnosticCode has its page and every page is a DiagnosticCode")
    func oneToOne() throws {
        let pages = try pages()
        #expect(Set(pages.keys) == Set(DiagnosticCode.allCases.map(\.rawValue)))
        let index = try String(contentsOf: Self.directory.appendingPathComponent("README.md"), encoding: .utf8)
        for code in DiagnosticCode.allCases {
            #expect(index.contains("| [\(code.rawValue)](\(code.rawValue).md) |"), "README.md does not list \(code.rawValue)")
        }
    }

    @Test("each page's title, severity and example output carry its own code and the code's severity")
    func pagesAgree() throws {
        for (name, page) in try pages() {
            let code = try #require(DiagnosticCode(rawValue: name))
            #expect(page.code == name, "docs/diagnostics/\(name).md is titled \(page.code)")
            #expect(page.severity == code.severity.rawValue,
                    "docs/diagnostics/\(name).md says \(page.severity), DiagnosticCode says \(code.severity)")
            #expect(page.output.contains { $0.contains(": \(code.severity.rawValue) \(name): ") },
                    "docs/diagnostics/\(name).md: \(page.output)")
        }
    }

    /// The example of each page is run: its files go into a content
    /// directory holding only the repository's English locale file, `reflect
    /// check`'s checker runs on it, and every output line of the page must
    /// be one of the diagnostics it prints, exactly (file, line, code and
    /// message). A page cannot show an output the tool does not give.
    @Test("every page's example, run through the checker, prints the page's output", arguments: DiagnosticCode.allCases)
    func exampleRuns(_ code: DiagnosticCode) throws {
        let page = try #require(try pages()[code.rawValue])
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("diag-\(code.rawValue)-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        let locales = dir.appendingPathComponent("locales")
        try FileManager.default.createDirectory(at: locales, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: repositoryRoot.appendingPathComponent("locales/en.yaml"),
                                         to: locales.appendingPathComponent("en.yaml"))
        for file in page.inputs {
            let url = dir.appendingPathComponent(file.path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try file.text.write(to: url, atomically: true, encoding: .utf8)
        }
        let diagnostics = ContentChecker(library: ContentLibrary(root: ContentRoot(dir)), totalSeconds: 30).run()
        let printed = diagnostics.map(\.headline)
        // In a failure, the lines of this code first (a minimal content
        // directory also yields many "not translated" warnings).
        let shown = (diagnostics.filter { $0.code == code } + diagnostics.filter { $0.code != code }).prefix(8).map(\.headline)
        for line in page.output {
            #expect(printed.contains(line), "docs/diagnostics/\(code.rawValue).md shows\n  \(line)\nbut the checker printed\n  \(shown.joined(separator: "\n  "))")
        }
    }
}
