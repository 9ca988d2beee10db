import ReflectCore
import ReflectEngine

/// Writes a locale document in its canonical form. Tools (`confirm`,
/// `import`) rewrite files this way: header comments kept, one line per
/// string in English key order, `{ text, source, note }` where there is
/// metadata. Parsing the output gives back the same document.
enum LocaleWriter {
    static func write(_ doc: LocaleDocument, englishOrder: [String]) -> String {
        var out = doc.header.isEmpty ? [] : doc.header
        out.append("locale: \(quote(doc.tag))")
        out.append("name: \(quote(doc.name))")
        out.append("matching: \(doc.matching.rawValue)")
        out.append("strings:")
        let known = englishOrder.filter { doc.entries[$0] != nil }
        let extra = doc.order.filter { !englishOrder.contains($0) }
        for key in known + extra {
            guard let e = doc.entries[key] else { continue }
            if e.source == nil && e.note == nil {
                out.append("  \(key): \(quote(e.text))")
            } else {
                var fields = ["text: \(quote(e.text))"]
                if let s = e.source { fields.append("source: \(quote(s))") }
                if let n = e.note { fields.append("note: \(quote(n))") }
                out.append("  \(key): { \(fields.joined(separator: ", ")) }")
            }
        }
        if let p = doc.probe {
            out.append("probe:")
            if let s = p.source { out.append("  source: \(quote(s))") }
            out.append("  min_characters: \(p.value.minimumCharacters)")
            out.append("  vague_phrases: \(list(p.value.vaguePhrases))")
        }
        if let w = doc.answerWords {
            out.append("answer_words:")
            if let s = w.source { out.append("  source: \(quote(s))") }
            for (name, words) in [("yes", w.value.yes), ("no", w.value.no), ("done", w.value.done), ("partly", w.value.partly), ("skip", w.value.skip)] {
                out.append("  \(name): \(list(words))")
            }
        }
        if let t = doc.themes {
            out.append("themes:")
            if let s = t.source { out.append("  source: \(quote(s))") }
            if !t.value.slots.isEmpty {
                out.append("  slots:")
                for (k, items) in t.value.slots.sorted(by: { $0.key < $1.key }) { out.append("    \(k): \(list(items))") }
            }
            for theme in Theme.allCases {
                if let words = t.value.words[theme] { out.append("  \(theme.rawValue): \(list(words))") }
            }
        }
        if let sd = doc.safety {
            let v = sd.value
            out.append("safety:")
            if let s = sd.source { out.append("  source: \(quote(s))") }
            if let r = v.defaultRegion { out.append("  default_region: \(quote(r))") }
            for (name, map) in [("phrases", v.phrases), ("slots", v.slots), ("medical", v.medical), ("resources", v.resources)] where !map.isEmpty {
                out.append("  \(name):")
                for (k, items) in map.sorted(by: { $0.key < $1.key }) { out.append("    \(k): \(list(items))") }
            }
            if !v.helplines.isEmpty {
                out.append("  helplines:")
                for category in SafetyCategory.allCases {
                    guard let map = v.helplines[category], !map.isEmpty else { continue }
                    out.append("    \(category.rawValue):")
                    for (k, items) in map.sorted(by: { $0.key < $1.key }) { out.append("      \(k): \(list(items))") }
                }
            }
            if !v.benign.isEmpty { out.append("  benign: \(list(v.benign))") }
            if !v.benignUnless.isEmpty { out.append("  benign_unless: \(list(v.benignUnless))") }
            if !v.negations.isEmpty { out.append("  negations: \(list(v.negations))") }
            if !v.negationsAfter.isEmpty { out.append("  negations_after: \(list(v.negationsAfter))") }
            if v.negationsAfterScope != .clause { out.append("  negations_after_scope: \(v.negationsAfterScope.rawValue)") }
            if !v.negationsVoid.isEmpty { out.append("  negations_void: \(list(v.negationsVoid))") }
        }
        if let d = doc.distortions {
            out.append("distortions:")
            if let s = d.source { out.append("  source: \(quote(s))") }
            let v = d.value
            out.append("  threshold: \(v.threshold)")
            out.append("  priority: \(list(v.priority))")
            if v.negation != DistortionRules.Negation() {
                out.append("  negation:")
                if !v.negation.before.isEmpty { out.append("    before: \(list(v.negation.before))") }
                if !v.negation.after.isEmpty { out.append("    after: \(list(v.negation.after))") }
                out.append("    window: \(v.negation.window)")
            }
            if !v.clauseBreaks.isEmpty { out.append("  clause_breaks: \(list(v.clauseBreaks))") }
            if !v.ownWords.isEmpty { out.append("  own_words: \(list(v.ownWords))") }
            if !v.slots.isEmpty {
                out.append("  slots:")
                for (k, items) in v.slots.sorted(by: { $0.key < $1.key }) { out.append("    \(k): \(list(items))") }
            }
            out.append("  rules:")
            for category in v.priority {
                let cues = v.cues[category] ?? .init()
                out.append("    \(category):")
                for s in DistortionRules.Strength.allCases where !cues[s].isEmpty { out.append("      \(s.rawValue): \(list(cues[s]))") }
            }
        }
        return out.joined(separator: "\n") + "\n"
    }

    static func list(_ items: [String]) -> String {
        "[" + items.map(quote).joined(separator: ", ") + "]"
    }

    /// A YAML double-quoted scalar.
    static func quote(_ s: String) -> String {
        var out = "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\\": out += "\\\\"
            case "\"": out += "\\\""
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "\r": out += "\\r"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    out += String(format: "\\x%02X", scalar.value)
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }
}
