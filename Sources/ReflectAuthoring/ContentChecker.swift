import Foundation
import ReflectCore
import ReflectEngine
import ReflectTranslation

/// `reflect check`: everything an author or translator could have broken,
/// as ``Diagnostic``s, without running anything for a person.
///
/// Loads every locale (``LocaleTools/check()``), every personality, every
/// flow under `flows/`; compiles each flow, then explores it
/// (``FlowExplorer``) in English; reports the locale keys the exploration
/// used that a translation lacks, per locale.
///
/// One problem is reported once, under one code, with the severity it has
/// in `reflect locales check`: a key a flow uses that a locale lacks or has
/// stale is R006 at the flow's line (and not also L005/L006 at the locale
/// file); a broken translation (empty, placeholders differ) is L002/L004,
/// an error, at the locale file's line, and not also R006.
///
/// Limited to one flow (``run(only:)``), it reports that flow's file and
/// the locale findings about the keys that flow uses (and any malformed
/// locale file), and leaves out the rest of the content.
public struct ContentChecker: Sendable {
    public let library: ContentLibrary
    public let explorer: FlowExplorer
    /// Wall-clock budget for the whole check; each flow's exploration also
    /// has its own (``FlowExplorer/Budget``). Files left when it runs out
    /// are reported as R012, not checked.
    public var totalSeconds: Double

    public init(library: ContentLibrary, explorer: FlowExplorer = FlowExplorer(), totalSeconds: Double = 120) {
        self.library = library
        self.explorer = explorer
        self.totalSeconds = totalSeconds
    }

    /// Checks the whole content directory, or only the flow `only` (a
    /// flow as ``FlowCatalog/source(for:)`` resolves it: an id or a path).
    public func run(only: FlowSource? = nil) -> [Diagnostic] {
        var out: [Diagnostic] = []
        let localeFindings = LocaleTools(library: library).check()
        if only == nil {
            out += PersonalityCheck(library: library).run()
            out += ExperimentChecker(library: library).run()
            // Prompt templates (docs/generation.md): the fixed placeholder list.
            do { _ = try PromptLibrary.load(library.root) } catch {
                out.append(Diagnostic(.prompt, file: error.file ?? "prompts", line: error.line, message: error.message))
            }
        }
        let english: Language?
        do { english = try library.language(for: "en") } catch {
            // Reported once: the locale check names a malformed en.yaml already.
            if !localeFindings.contains(where: { $0.code == .localeMalformed && $0.locale == "en" }) { out.append(Diagnostic(.localeMalformed, file: error.file ?? "locales/en.yaml", line: error.line, message: error.message)) }
            english = nil
        }
        if only == nil { out += CelebrationRulesCheck(root: library.root).run() }
        var ids: [String: String] = [:]
        var usedKeys = Set<String>()
        /// (locale, key) pairs reported as R006 at a flow's line.
        var reportedAtFlow = Set<String>()
        let deadline = Date().addingTimeInterval(totalSeconds)
        let files: [(name: String, read: () throws(EngineError) -> FlowSource)] = only.map { source in
            [(source.name, { () throws(EngineError) in source })]
        } ?? library.root.flowFiles().map { file in
            (file.name, { () throws(EngineError) in try FlowSource.read(file.url, displayName: file.name) })
        }
        // What a person with a history has answered in every flow (not
        // only the ones checked): flows read each other's answers.
        let earlier = FlowExplorer.earlierAnswers(of: library.root.flowFiles().compactMap { file in
            try? FlowSource.read(file.url, displayName: file.name)
        })
        for file in files {
            guard Date() < deadline else {
                out.append(Diagnostic(.explorationBudget, file: file.name,
                                      message: "not checked: the check's overall budget (\(Int(totalSeconds)) s) ran out before this file"))
                continue
            }
            let source: FlowSource
            do { source = try file.read() } catch {
                out.append(FlowExplorer.diagnostic(error, file: file.name))
                continue
            }
            let definition: FlowDefinition
            do { definition = try FlowSession.definitionOnly(source) } catch {
                var d = FlowExplorer.diagnostic(error, file: file.name, source: source.text)
                if d.code == .syntax, let line = d.line {
                    d.column = ContentChecker.column(of: d.message, line: line, in: source.text)
                }
                out.append(d)
                continue
            }
            // Listing and lookup read the id as text; it must be what the file returns.
            if let declared = FlowSourceScanner(source.text).header.id, declared != definition.id {
                out.append(Diagnostic(.notAFlow, file: file.name, line: FlowSourceScanner(source.text).header.line,
                                      message: "the file declares id = \"\(declared)\" but its flow table has id '\(definition.id)' when run"))
            }
            if let other = ids[definition.id] {
                out.append(Diagnostic(.duplicateFlow, file: file.name, line: FlowExplorer.line(of: "id", in: source.text),
                                      message: "flow id '\(definition.id)' is also declared in \(other)"))
            }
            ids[definition.id] = file.name
            guard let english else { continue }
            let report = explorer.explore(source, language: english, deadline: deadline, earlier: earlier)
            out += report.diagnostics
            // The title is a key like any text the flow shows: one no locale
            // has would be shown raw (R005); an untranslated one is reported
            // at its line (R006), as a prompt's.
            var flowKeys = report.keys
            if let title = definition.title, FlowAPI.looksLikeKey(title) {
                if english.localizer.string(title) != nil {
                    flowKeys.insert(title)
                } else {
                    let keys = Array(Set(english.localizer.chain.flatMap { $0.strings.keys }))
                    let guess = Suggestion.nearest(to: title, among: keys).map { "; did you mean '\($0)'?" } ?? ""
                    out.append(Diagnostic(.unknownKey, file: file.name, line: FlowExplorer.line(of: "title", in: source.text),
                                          message: "title: unknown locale key '\(title)' (not in locales/en.yaml)\(guess)"))
                }
            }
            usedKeys.formUnion(flowKeys)
            // Locale keys this flow uses, per translation.
            var keyLines: [String: Int?] = [:]
            func keyLine(_ key: String) -> Int? {
                if let known = keyLines[key] { return known }
                let line = FlowExplorer.line(of: key, in: source.text)
                    ?? FlowExplorer.line(of: key.components(separatedBy: ".").dropLast().joined(separator: "."), in: source.text)
                keyLines[key] = line
                return line
            }
            if let en = try? library.document("en") {
                for tag in library.availableLocales() where tag != "en" {
                    guard let doc = try? library.document(tag) else { continue }
                    for key in flowKeys.sorted() where en.entries[key] != nil {
                        // A broken entry is the locale file's error (L002/L004), reported there.
                        let why: String
                        switch TranslationState.of(key: key, entry: doc.entries[key], english: en) {
                        case .missing: why = "missing"
                        case .stale: why = "stale"
                        case .unconfirmed: why = "unconfirmed"
                        default: continue
                        }
                        reportedAtFlow.insert("\(tag)|\(key)")
                        out.append(Diagnostic(.untranslatedKey, file: file.name,
                                              line: keyLine(key),
                                              message: "uses '\(key)', which is not translated in \(tag) (\(why))"))
                    }
                }
            }
        }
        // The locale findings: not those already reported at a flow's line;
        // limited to one flow, only those about its keys and malformed files.
        let locales = localeFindings.filter { d in
            guard let key = d.key else { return only == nil || d.code == .localeMalformed }
            if reportedAtFlow.contains("\(d.locale ?? "")|\(key)") { return false }
            return only == nil || usedKeys.contains(key)
        }
        return locales + out
    }

    /// A column for a Lua syntax error: where the token it names ("near
    /// 'x'") sits on the line, else 1.
    static func column(of message: String, line: Int, in source: String) -> Int {
        let lines = LineEndings.normalized(source).split(separator: "\n", omittingEmptySubsequences: false)
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
