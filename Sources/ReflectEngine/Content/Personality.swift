import Foundation
import ReflectCore

/// A personality pack, `personalities/<id>.yaml`: a tone, expressed as
/// overrides of locale strings (same keys, same placeholders), per locale.
///
/// ```yaml
/// id: zen
/// name: Zen
/// strings:
///   en:
///     intensity.pre: "Let's pause. How strong is this feeling, right now?"
/// ```
public struct Personality: Sendable, Equatable {
    public var id: String
    public var name: String
    /// Overrides by locale tag, then key.
    public var strings: [String: [String: String]]

    static func load(_ url: URL, displayName: String) throws(EngineError) -> Personality {
        let text = try ContentText.read(url) { .invalidContent(file: displayName, line: $0, message: $1) }
        let doc = try YAMLDocument(text: text, file: displayName)
        var p = Personality(id: "", name: "", strings: [:])
        for (key, keyNode, value) in try doc.mapping(doc.root, "a personality file") {
            switch key {
            case "id": p.id = try doc.string(value, "id")
            case "name": p.name = try doc.string(value, "name")
            case "strings":
                for (tag, _, table) in try doc.mapping(value, "strings") {
                    var overrides: [String: String] = [:]
                    for (k, _, v) in try doc.mapping(table, "strings.\(tag)") { overrides[k] = try doc.string(v, "strings.\(tag).\(k)") }
                    p.strings[tag] = overrides
                }
            default:
                throw doc.fail(keyNode, "unknown section '\(key)' (expected id, name, strings)")
            }
        }
        let expected = url.deletingPathExtension().lastPathComponent
        guard p.id == expected else { throw doc.fail(doc.root, "declares 'id: \(p.id)', expected '\(expected)'") }
        if p.name.isEmpty { p.name = p.id }
        return p
    }
}
