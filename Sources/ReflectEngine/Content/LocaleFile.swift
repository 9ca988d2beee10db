import Foundation
import ReflectCore
import Yams

/// Reads `locales/<tag>.yaml` into a ``LocaleDocument``.
///
/// ```yaml
/// locale: de
/// name: Deutsch
/// matching: word            # or substring (ja, ko)
/// strings:
///   reflection.negative.q1: { text: "Was ist heute passiert …?", source: 3f2a91bc }
///   intensity.hint: "0 = gar nicht, 10 = so stark wie nur möglich"   # not confirmed yet: stale
/// probe:
///   source: 5d41402a
///   min_characters: 25
///   vague_phrases: [keine ahnung, alles]
/// distortions:               # docs/distortions.md
///   source: 7c6a180b
///   threshold: 0.5
///   priority: [catastrophizing, ...]
///   negation: { before: [nicht, kein], window: 3 }
///   slots: { trait_adj: [dumm, nutzlos] }
///   rules: { labeling: { strong: ["ich bin so {trait_adj}"] } }
/// ```
///
/// English entries are plain strings (English is the source). A
/// translation's `source` is the lock of the English text it translates
/// (see ``SourceLock``); `note` is the translator's own comment. Every error
/// names the file and line.
package enum LocaleFile {
    package static let sections: Set<String> = ["locale", "name", "matching", "strings", "probe", "distortions", "answer_words", "safety", "themes"]

    /// `runtime`: for running sessions only. Skips what only translators and
    /// `reflect check` need (the header, comments above keys, and checking
    /// the word lists, which compiling them checks again); a file that
    /// fails to compile is re-read without `runtime` to name the line.
    package static func load(_ url: URL, displayName: String, runtime: Bool = false) throws(EngineError) -> LocaleDocument {
        let text = try ContentText.read(url) { .invalidContent(file: displayName, line: $0, message: $1) }
        return try document(text, file: displayName, runtime: runtime)
    }

    /// A single file read on its own, every string included (as if it were
    /// the source locale).
    package static func parse(_ text: String, file: String) throws(EngineError) -> LocaleData {
        let doc = try document(text, file: file)
        var data = doc.runtimeData(source: nil)
        data.strings = doc.entries.mapValues(\.text)
        return data
    }

    package static func document(_ text: String, file: String, runtime: Bool = false) throws(EngineError) -> LocaleDocument {
        // A file with CRLF endings (Git's autocrlf) reads as the same lines.
        let text = LineEndings.normalized(text)
        let doc = try YAMLDocument(text: text, file: file)
        var out = LocaleDocument(file: file)
        if !runtime {
            out.header = text.split(separator: "\n", omittingEmptySubsequences: false).prefix { $0.hasPrefix("#") }.map(String.init)
        }
        for (key, keyNode, value) in try doc.mapping(doc.root, "a locale file") {
            out.sectionLines[key] = keyNode.mark?.line
            switch key {
            case "locale": out.tag = try doc.string(value, "locale")
            case "name": out.name = try doc.string(value, "name")
            case "matching":
                guard let mode = PhraseMatcher.Mode(rawValue: try doc.string(value, "matching")) else {
                    throw doc.fail(value, "matching must be 'word' or 'substring'")
                }
                out.matching = mode
            case "strings": try strings(value, doc, into: &out)
            case "probe": out.probe = try probe(value, doc)
            case "distortions": out.distortions = try distortions(value, doc, validate: !runtime)
            case "answer_words": out.answerWords = try answerWords(value, doc)
            case "safety": out.safety = try safety(value, doc, validate: !runtime)
            case "themes": out.themes = try themes(value, doc)
            default:
                throw doc.fail(keyNode, "unknown section '\(key)' (expected one of: \(sections.sorted().joined(separator: ", ")))")
            }
        }
        guard !out.tag.isEmpty else { throw doc.fail(doc.root, "missing 'locale: <tag>'") }
        if out.name.isEmpty { out.name = out.tag }
        if !runtime { out.comments = commentsAboveKeys(text) }
        return out
    }

    private static func strings(_ node: Node, _ doc: YAMLDocument, into out: inout LocaleDocument) throws(EngineError) {
        for (key, keyNode, value) in try doc.mapping(node, "strings") {
            var entry = LocaleDocument.Entry(text: "")
            if let s = value.scalar?.string {
                entry.text = s
            } else if value.mapping != nil {
                var hasText = false
                for (field, fieldNode, v) in try doc.mapping(value, "string '\(key)'") {
                    switch field {
                    case "text": entry.text = try doc.string(v, "string '\(key)'"); hasText = true
                    case "source": entry.source = try doc.string(v, "string '\(key)' source")
                    case "note": entry.note = try doc.string(v, "string '\(key)' note")
                    default: throw doc.fail(fieldNode, "string '\(key)': unknown field '\(field)' (text, source, note)")
                    }
                }
                if !hasText { throw doc.fail(value, "string '\(key)' has no text") }
            } else {
                throw doc.fail(value, "string '\(key)' must be text, or { text: ..., source: ... }")
            }
            out.entries[key] = entry
            out.order.append(key)
            out.lines[key] = keyNode.mark?.line
        }
    }

    private static func probe(_ node: Node, _ doc: YAMLDocument) throws(EngineError) -> LocaleDocument.Locked<ProbeData> {
        var p = ProbeData()
        var source: String?
        for (key, keyNode, value) in try doc.mapping(node, "probe") {
            switch key {
            case "min_characters": p.minimumCharacters = try doc.int(value, "probe.min_characters")
            case "vague_phrases": p.vaguePhrases = try doc.strings(value, "probe.vague_phrases")
            case "source": source = try doc.string(value, "probe.source")
            default: throw doc.fail(keyNode, "unknown probe setting '\(key)' (min_characters, vague_phrases, source)")
            }
        }
        return .init(value: p, source: source)
    }

    /// `themes: { source, slots: { name: [...] }, work: [...], sleep: [...] … }`.
    private static func themes(_ node: Node, _ doc: YAMLDocument) throws(EngineError) -> LocaleDocument.Locked<ThemeLists> {
        var t = ThemeLists()
        var source: String?
        for (key, keyNode, value) in try doc.mapping(node, "themes") {
            if key == "source" {
                source = try doc.string(value, "themes.source")
            } else if key == "slots" {
                for (name, _, list) in try doc.mapping(value, "themes.slots") { t.slots[name] = try doc.strings(list, "themes.slots.\(name)") }
            } else if let theme = Theme(rawValue: key) {
                t.words[theme] = try doc.strings(value, "themes.\(key)")
            } else {
                throw doc.fail(keyNode, "unknown theme '\(key)' (\(Theme.allCases.map(\.rawValue).joined(separator: ", ")), slots, source)")
            }
        }
        do { try t.lexicon.validate() } catch { throw doc.fail(node, "themes: \(error)") }
        return .init(value: t, source: source)
    }

    private static func answerWords(_ node: Node, _ doc: YAMLDocument) throws(EngineError) -> LocaleDocument.Locked<AnswerWords> {
        var w = AnswerWords()
        var source: String?
        for (key, keyNode, value) in try doc.mapping(node, "answer_words") {
            switch key {
            case "yes": w.yes = try doc.strings(value, "answer_words.yes")
            case "no": w.no = try doc.strings(value, "answer_words.no")
            case "done": w.done = try doc.strings(value, "answer_words.done")
            case "partly": w.partly = try doc.strings(value, "answer_words.partly")
            case "skip": w.skip = try doc.strings(value, "answer_words.skip")
            case "source": source = try doc.string(value, "answer_words.source")
            default: throw doc.fail(keyNode, "unknown answer_words entry '\(key)' (yes, no, done, partly, skip)")
            }
        }
        return .init(value: w, source: source)
    }

    private static func safety(_ node: Node, _ doc: YAMLDocument, validate: Bool) throws(EngineError) -> LocaleDocument.Locked<SafetyData> {
        var d = SafetyData()
        var source: String?
        func lists(_ n: Node, _ what: String) throws(EngineError) -> [String: [String]] {
            var out: [String: [String]] = [:]
            for (k, kNode, v) in try doc.mapping(n, what) {
                let items = try doc.strings(v, "\(what).\(k)")
                if items.isEmpty { throw doc.fail(kNode, "\(what).\(k) is empty") }
                out[k] = items
            }
            return out
        }
        for (key, keyNode, value) in try doc.mapping(node, "safety") {
            switch key {
            case "source": source = try doc.string(value, "safety.source")
            case "default_region": d.defaultRegion = try doc.string(value, "safety.default_region")
            case "phrases": d.phrases = try lists(value, "safety.phrases")
            case "slots": d.slots = try lists(value, "safety.slots")
            case "benign": d.benign = try doc.strings(value, "safety.benign")
            case "benign_unless": d.benignUnless = try doc.strings(value, "safety.benign_unless")
            case "negations": d.negations = try doc.strings(value, "safety.negations")
            case "negations_after": d.negationsAfter = try doc.strings(value, "safety.negations_after")
            case "negations_after_scope":
                let name = try doc.string(value, "safety.negations_after_scope")
                guard let scope = NegationScope(rawValue: name) else {
                    throw doc.fail(value, "safety.negations_after_scope must be 'clause' (the whole rest of the clause) or 'words' (whole words after the phrase)")
                }
                d.negationsAfterScope = scope
            case "negations_void": d.negationsVoid = try doc.strings(value, "safety.negations_void")
            case "medical": d.medical = try lists(value, "safety.medical")
            case "resources": d.resources = try lists(value, "safety.resources")
            case "helplines":
                for (name, nameNode, regions) in try doc.mapping(value, "safety.helplines") {
                    guard let category = SafetyCategory(rawValue: name) else {
                        throw doc.fail(nameNode, "safety.helplines: '\(name)' is not a safety category (expected one of "
                            + SafetyCategory.allCases.map(\.rawValue).joined(separator: ", ") + ")")
                    }
                    d.helplines[category] = try lists(regions, "safety.helplines.\(name)")
                }
            default:
                throw doc.fail(keyNode, "unknown safety setting '\(key)' (source, default_region, phrases, slots, benign, benign_unless, negations, negations_after, negations_after_scope, negations_void, medical, resources, helplines)")
            }
        }
        if validate {
            do {
                try SafetyGate.validate(d)
                try OutputFilter.validate(d)
            } catch {
                throw doc.fail(node, "safety: \(error)")
            }
        }
        return .init(value: d, source: source)
    }

    private static func distortions(_ node: Node, _ doc: YAMLDocument, validate: Bool) throws(EngineError) -> LocaleDocument.Locked<DistortionRules> {
        var rules = DistortionRules(priority: [], cues: [:])
        var source: String?
        let settings = "threshold, priority, negation, clause_breaks, own_words, slots, rules, source"
        for (key, keyNode, value) in try doc.mapping(node, "distortions") {
            switch key {
            case "priority": rules.priority = try doc.strings(value, "distortions.priority")
            case "source": source = try doc.string(value, "distortions.source")
            case "threshold":
                let text = try doc.string(value, "distortions.threshold")
                guard let t = Double(text), t >= 0, t <= 1 else { throw doc.fail(value, "distortions.threshold must be a number from 0 to 1") }
                rules.threshold = t
            case "negation":
                for (k, kNode, v) in try doc.mapping(value, "distortions.negation") {
                    switch k {
                    case "before": rules.negation.before = try doc.strings(v, "distortions.negation.before")
                    case "after": rules.negation.after = try doc.strings(v, "distortions.negation.after")
                    case "window":
                        let w = try doc.int(v, "distortions.negation.window")
                        guard (0...50).contains(w) else { throw doc.fail(v, "distortions.negation.window must be from 0 to 50") }
                        rules.negation.window = w
                    default: throw doc.fail(kNode, "unknown distortions.negation setting '\(k)' (before, after, window)")
                    }
                }
            case "clause_breaks": rules.clauseBreaks = try doc.strings(value, "distortions.clause_breaks")
            case "own_words": rules.ownWords = try doc.strings(value, "distortions.own_words")
            case "slots":
                for (slot, _, list) in try doc.mapping(value, "distortions.slots") {
                    rules.slots[slot] = try doc.strings(list, "distortions.slots.\(slot)")
                }
            case "rules":
                for (category, categoryNode, levels) in try doc.mapping(value, "distortions.rules") {
                    var cues = DistortionRules.Cues()
                    for (level, levelNode, list) in try doc.mapping(levels, "distortions.rules.\(category)") {
                        guard let strength = DistortionRules.Strength(rawValue: level) else {
                            throw doc.fail(levelNode, "unknown strength '\(level)' in distortions.rules.\(category) (strong, medium, weak)")
                        }
                        cues[strength] = try doc.strings(list, "distortions.rules.\(category).\(level)")
                    }
                    if cues.isEmpty { throw doc.fail(categoryNode, "distortions.rules.\(category) is empty") }
                    rules.cues[category] = cues
                }
            case "phrases":
                throw doc.fail(keyNode, "distortions.phrases is now distortions.rules, with strong/medium/weak lists per type (docs/distortions.md)")
            default: throw doc.fail(keyNode, "unknown distortions setting '\(key)' (\(settings))")
            }
        }
        for category in rules.cues.keys where !rules.priority.contains(category) {
            throw doc.fail(node, "distortions: '\(category)' has rules but is not in priority")
        }
        for category in rules.priority where rules.cues[category]?.isEmpty ?? true {
            throw doc.fail(node, "distortions: '\(category)' is in priority but has no rules")
        }
        if validate {
            do {
                try DistortionDetector.validate(rules)
            } catch {
                throw doc.fail(node, "distortions: \(error)")
            }
        }
        return .init(value: rules, source: source)
    }

    /// `# comment` lines directly above an indented `key:` line of
    /// `strings` (libyaml drops comments, so they are read from the text).
    package static func commentsAboveKeys(_ text: String) -> [String: [String]] {
        var out: [String: [String]] = [:]
        var pending: [String] = []
        var inStrings = false
        for raw in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let line = String(raw)
            if !line.hasPrefix(" ") && !line.hasPrefix("#") && !line.isEmpty { inStrings = line.hasPrefix("strings:") }
            guard inStrings else { continue }
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix("#") {
                pending.append(trimmed.dropFirst().trimmingCharacters(in: .whitespaces))
            } else if trimmed.isEmpty {
                pending.removeAll()
            } else if let colon = trimmed.firstIndex(of: ":") {
                if !pending.isEmpty { out[String(trimmed[..<colon])] = pending }
                pending.removeAll()
            }
        }
        return out
    }
}
