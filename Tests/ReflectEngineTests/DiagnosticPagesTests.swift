import Foundation
import Testing
@testable import ReflectAuthoring
@testable import ReflectTranslation

/// `docs/diagnostics/` is the catalog of `reflect check` codes: one page per
/// code, in the format docs/diagnostics/README.md states (title, severity,
/// an example as input and output, the fix). The pages and `DiagnosticCode`
/// cannot drift apart.
@Suite("Diagnostic pages")
struct DiagnosticPagesTests {
    static let directory = repositoryRoot.appendingPathComponent("docs/diagnostics")

    /// A page, parsed: its title code, severity line, and the example's
    /// input and output blocks.
    struct Page {
        var code: String
        var severity: String
        var input: String
        var output: String

        init(_ text: String, file: String) throws {
            let lines = text.components(separatedBy: "\n")
            let title = try #require(lines.first, "\(file) is empty")
            code = String(title.dropFirst(2).prefix { $0 != ":" })
            let severityLine = try #require(lines.first { $0.hasPrefix("Severity: ") }, "\(file): no 'Severity:' line")
            severity = String(severityLine.dropFirst("Severity: ".count).prefix { $0.isLetter })
            let example = try #require(text.range(of: "\n## Example\n"), "\(file): no '## Example' section")
            let fix = try #require(text.range(of: "\n## Fix\n"), "\(file): no '## Fix' section")
            let blocks = text[example.upperBound..<fix.lowerBound].components(separatedBy: "```").enumerated()
                .filter { $0.offset % 2 == 1 }.map(\.element)
            try #require(blocks.count == 2, "\(file): the example is an input block and an output block")
            input = String(blocks[0].drop { $0 != "\n" }).trimmingCharacters(in: .newlines)
            output = blocks[1].trimmingCharacters(in: .newlines)
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
            #expect(!page.input.isEmpty, "docs/diagnostics/\(name).md: the example has no input")
            #expect(page.output.contains(": \(code.severity.rawValue) \(name): "), "docs/diagnostics/\(name).md: \(page.output)")
        }
    }

    @Test("every locale finding kind has its own diagnostic code")
    func localeKindsDistinct() {
        let codes = LocaleFinding.Kind.allCases.map { kind in
            DiagnosticCode.locale(LocaleFinding(severity: .error, kind: kind, file: "f", locale: "de", message: "m"))
        }
        #expect(Set(codes).count == LocaleFinding.Kind.allCases.count)
    }
}
