import Foundation
import ReflectCore

/// `reflect check`: everything an author or translator could have broken,
/// as ``Diagnostic``s, without running anything for a person.
///
/// Loads every locale (``LocaleTools/check()``), every personality, every
/// flow under `flows/`; compiles each flow, then explores it
/// (``FlowExplorer``) in English; reports the locale keys the exploration
/// used that a translation lacks, per locale.
public struct ContentChecker: Sendable {
    public let library: ContentLibrary
    public let explorer: FlowExplorer

    public init(library: ContentLibrary, explorer: FlowExplorer = FlowExplorer()) {
        self.library = library
        self.explorer = explorer
    }

    public func run() -> [Diagnostic] {
        var out: [Diagnostic] = []
        for f in LocaleTools(library: library).check() {
            out.append(Diagnostic(DiagnosticCode.locale(f), file: f.file, line: f.line,
                                  message: f.key.map { "'\($0)' (\(f.locale)): " + f.message } ?? f.message))
        }
        for id in library.availablePersonalities() {
            do { _ = try library.personality(id) } catch {
                out.append(Diagnostic(.personality, file: error.file ?? "personalities/\(id).yaml", line: error.line, message: error.message))
            }
        }
        let english: Language?
        do { english = try library.language(for: "en") } catch {
            out.append(Diagnostic(.localeMalformed, file: error.file ?? "locales/en.yaml", line: error.line, message: error.message))
            english = nil
        }
        var ids: [String: String] = [:]
        var usedKeys = Set<String>()
        for file in library.root.flowFiles() {
            let source: FlowSource
            do { source = try FlowSource.read(file.url, displayName: file.name) } catch {
                out.append(FlowExplorer.diagnostic(error, file: file.name))
                continue
            }
            let definition: FlowDefinition
            do { definition = try FlowSession.definitionOnly(source) } catch {
                var d = FlowExplorer.diagnostic(error, file: file.name)
                if d.code == DiagnosticCode.syntax.rawValue, let line = d.line {
                    d.column = ContentChecker.column(of: d.message, line: line, in: source.text)
                }
                out.append(d)
                continue
            }
            if let other = ids[definition.id] {
                out.append(Diagnostic(.duplicateFlow, file: file.name, line: FlowExplorer.line(of: "id", in: source.text),
                                      message: "flow id '\(definition.id)' is also declared in \(other)"))
            }
            ids[definition.id] = file.name
            guard let english else { continue }
            let report = explorer.explore(source, language: english)
            out += report.diagnostics
            usedKeys.formUnion(report.keys)
            // Locale keys this flow uses, per translation.
            if let en = try? library.document("en") {
                for tag in library.availableLocales() where tag != "en" {
                    guard let doc = try? library.document(tag) else { continue }
                    for key in report.keys.sorted() where en.entries[key] != nil {
                        let state = TranslationState.of(key: key, entry: doc.entries[key], english: en)
                        guard state != .translated else { continue }
                        let why: String
                        switch state {
                        case .missing: why = "missing"
                        case .stale: why = "stale"
                        case .broken(let reason): why = reason
                        default: why = "unusable"
                        }
                        out.append(Diagnostic(.untranslatedKey, file: file.name,
                                              line: FlowExplorer.line(of: key, in: source.text) ?? FlowExplorer.line(of: key.components(separatedBy: ".").dropLast().joined(separator: "."), in: source.text),
                                              message: "uses '\(key)', which is not translated in \(tag) (\(why))"))
                    }
                }
            }
        }
        return out
    }

    /// A column for a Lua syntax error: where the token it names ("near
    /// 'x'") sits on the line, else 1.
    static func column(of message: String, line: Int, in source: String) -> Int {
        let lines = source.split(separator: "\n", omittingEmptySubsequences: false)
        guard line >= 1, line <= lines.count else { return 1 }
        let text = String(lines[line - 1])
        if message.hasSuffix("near <eof>") { return text.count + 1 }
        if let r = message.range(of: "near '", options: .backwards) {
            let token = message[r.upperBound...].dropLast(message.hasSuffix("'") ? 1 : 0)
            if !token.isEmpty, let hit = text.range(of: token) { return text.distance(from: text.startIndex, to: hit.lowerBound) + 1 }
        }
        return 1
    }
}
