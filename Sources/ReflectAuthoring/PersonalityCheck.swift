import Foundation
import ReflectCore
import ReflectEngine

/// `reflect check` for personality packs (`personalities/*.yaml`), P001:
/// a pack that does not load; a locale the content does not have; a key
/// English does not have (a pool line past the pool's end, or an unknown
/// pool, says so); an override whose placeholders differ from the string
/// it replaces (it would be dropped at run time); a line the output filter
/// refuses (pool lines and every override are screened like generated text).
struct PersonalityCheck {
    let library: ContentLibrary

    func run() -> [Diagnostic] {
        var out: [Diagnostic] = []
        let english = try? library.document("en")
        let tags = Set(library.availableLocales())
        // Each locale is read once, whatever the number of packs and keys.
        var documents: [String: LocaleDocument] = [:]
        var languages: [String: Language] = [:]
        for id in library.availablePersonalities() {
            let file = "personalities/\(id).yaml"
            let pack: Personality
            do { pack = try library.personality(id) } catch {
                out.append(Diagnostic(.personality, file: error.file ?? file, line: error.line, message: error.message))
                continue
            }
            let text = (try? ContentText.read(library.personalitiesDirectory.appendingPathComponent("\(id).yaml")) { .invalidContent(file: file, line: $0, message: $1) }) ?? ""
            func line(_ key: String) -> Int? { FlowExplorer.line(of: key + ":", in: text) }
            for (tag, strings) in pack.strings.sorted(by: { $0.key < $1.key }) {
                guard tags.contains(tag) else {
                    out.append(Diagnostic(.personality, file: file, line: line(tag),
                                          message: "no locale '\(tag)' (locales/\(tag).yaml does not exist)"))
                    continue
                }
                if documents[tag] == nil, let doc = try? library.document(tag) { documents[tag] = doc }
                if languages[tag] == nil, let language = try? library.language(for: tag) { languages[tag] = language }
                let language = languages[tag]
                for (key, value) in strings.sorted(by: { $0.key < $1.key }) {
                    guard let base = english?.entries[key]?.text else {
                        out.append(Diagnostic(.personality, file: file, line: line(key), message: "'\(key)' (\(tag)): " + PersonalityCheck.unknown(key)))
                        continue
                    }
                    let shown = (tag == "en" ? nil : documents[tag]?.entries[key]?.text) ?? base
                    if Template(value).arguments != Template(shown).arguments {
                        out.append(Diagnostic(.personality, file: file, line: line(key),
                                              message: "'\(key)' (\(tag)): placeholders differ from the locale's string (it would not be used)"))
                    }
                    if let reason = language?.screen(generated: value).blocked {
                        out.append(Diagnostic(.personality, file: file, line: line(key),
                                              message: "'\(key)' (\(tag)): the output filter refuses this line (\(reason))"))
                    }
                }
            }
        }
        return out
    }

    /// Why a key English lacks is wrong: a pool line past the end, an
    /// unknown pool, or an unknown key.
    static func unknown(_ key: String) -> String {
        let parts = key.split(separator: ".")
        if parts.count == 3, parts[0] == "pool" {
            guard let pool = LinePool(rawValue: String(parts[1])) else {
                return "unknown line pool '\(parts[1])' (\(LinePool.allCases.map(\.rawValue).joined(separator: ", ")))"
            }
            return "the \(pool.rawValue) pool has \(pool.size) lines (pool.\(pool.rawValue).1 … \(pool.size))"
        }
        return "not a key of locales/en.yaml (a pack overrides existing strings only)"
    }
}
