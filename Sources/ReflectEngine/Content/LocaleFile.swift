import Foundation
import ReflectCore
import Yams

/// Reads `locales/<tag>.yaml`.
///
/// ```yaml
/// locale: en
/// name: English
/// matching: word            # or substring (ja, ko)
/// strings:
///   reflection.negative.q1: "What happened today that affected your mood?"
/// probe:
///   min_characters: 25
///   vague_phrases: [idk, everything]
/// distortions:
///   priority: [catastrophizing, mind_reading, ...]
///   slots: { trait: [failure, loser] }
///   phrases:
///     labeling: ["i'm a {trait}", "i'm such a"]
/// ```
///
/// Every error names the file and line (`locales/en.yaml:12: ...`).
enum LocaleFile {
    static let sections: Set<String> = ["locale", "name", "matching", "strings", "probe", "distortions"]

    static func load(_ url: URL, displayName: String) throws(EngineError) -> LocaleData {
        let text: String
        do { text = try String(contentsOf: url, encoding: .utf8) } catch {
            throw .invalidContent(file: displayName, line: nil, message: "cannot read the file as UTF-8 text")
        }
        return try parse(text, file: displayName)
    }

    static func parse(_ text: String, file: String) throws(EngineError) -> LocaleData {
        let doc = try YAMLDocument(text: text, file: file)
        var data = LocaleData(tag: "", name: "")
        for (key, keyNode, value) in try doc.mapping(doc.root, "a locale file") {
            switch key {
            case "locale": data.tag = try doc.string(value, "locale")
            case "name": data.name = try doc.string(value, "name")
            case "matching":
                guard let mode = PhraseMatcher.Mode(rawValue: try doc.string(value, "matching")) else {
                    throw doc.fail(value, "matching must be 'word' or 'substring'")
                }
                data.matching = mode
            case "strings": data.strings = try strings(value, doc)
            case "probe": data.probe = try probe(value, doc)
            case "distortions": data.distortions = try distortions(value, doc)
            default:
                throw doc.fail(keyNode, "unknown section '\(key)' (expected one of: \(sections.sorted().joined(separator: ", ")))")
            }
        }
        guard !data.tag.isEmpty else { throw doc.fail(doc.root, "missing 'locale: <tag>'") }
        if data.name.isEmpty { data.name = data.tag }
        return data
    }

    /// A string is either plain text, or `{ text: "...", ... }` (translations
    /// carry metadata beside the text).
    private static func strings(_ node: Node, _ doc: YAMLDocument) throws(EngineError) -> [String: String] {
        var out: [String: String] = [:]
        for (key, _, value) in try doc.mapping(node, "strings") {
            if let s = value.scalar?.string {
                out[key] = s
            } else if value.mapping != nil {
                for (field, _, v) in try doc.mapping(value, "string '\(key)'") where field == "text" {
                    out[key] = try doc.string(v, "string '\(key)'")
                }
            } else {
                throw doc.fail(value, "string '\(key)' must be text")
            }
        }
        return out
    }

    private static func probe(_ node: Node, _ doc: YAMLDocument) throws(EngineError) -> ProbeData {
        var p = ProbeData()
        for (key, keyNode, value) in try doc.mapping(node, "probe") {
            switch key {
            case "min_characters": p.minimumCharacters = try doc.int(value, "probe.min_characters")
            case "vague_phrases": p.vaguePhrases = try doc.strings(value, "probe.vague_phrases")
            default: throw doc.fail(keyNode, "unknown probe setting '\(key)'")
            }
        }
        return p
    }

    private static func distortions(_ node: Node, _ doc: YAMLDocument) throws(EngineError) -> PhraseLexicon {
        var lexicon = PhraseLexicon(priority: [], phrases: [:])
        for (key, keyNode, value) in try doc.mapping(node, "distortions") {
            switch key {
            case "priority": lexicon.priority = try doc.strings(value, "distortions.priority")
            case "slots":
                for (slot, _, list) in try doc.mapping(value, "distortions.slots") {
                    lexicon.slots[slot] = try doc.strings(list, "distortions.slots.\(slot)")
                }
            case "phrases":
                for (category, categoryNode, list) in try doc.mapping(value, "distortions.phrases") {
                    let phrases = try doc.strings(list, "distortions.phrases.\(category)")
                    if phrases.isEmpty { throw doc.fail(categoryNode, "distortions.phrases.\(category) is empty") }
                    lexicon.phrases[category] = phrases
                }
            default: throw doc.fail(keyNode, "unknown distortions setting '\(key)'")
            }
        }
        for category in lexicon.phrases.keys where !lexicon.priority.contains(category) {
            throw doc.fail(node, "distortions: '\(category)' has phrases but is not in priority")
        }
        do {
            _ = try DistortionDetector(lexicon, mode: .wordBoundary)
        } catch {
            throw doc.fail(node, "distortions: \(error)")
        }
        return lexicon
    }
}
