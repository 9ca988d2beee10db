import Foundation
import ReflectCore
import ReflectEngine

/// `reflect check` for celebration rules files (`flows/**/celebrations.lua`):
/// every literal `tier = "…"`, `reason = "…"` and `pool = "…"` must name a
/// tier, reason and pool the engine knows (R013), so a misspelling is found
/// even in a branch no exploration reaches. (A rules file's syntax and
/// runtime errors surface when the flows beside it are explored.)
struct CelebrationRulesCheck {
    let root: ContentRoot

    func run() -> [Diagnostic] {
        guard let walker = FileManager.default.enumerator(at: root.flowsDirectory, includingPropertiesForKeys: nil) else { return [] }
        var out: [Diagnostic] = []
        let files = walker.compactMap { $0 as? URL }.filter { $0.lastPathComponent == FlowSource.celebrationRulesFile }.sorted { $0.path < $1.path }
        for url in files {
            let name = root.displayName(for: url)
            let text: String
            do { text = try ContentText.read(url) { .invalidContent(file: name, line: $0, message: $1) } } catch {
                out.append(Diagnostic(.celebrationRule, file: name, line: error.line, message: error.message))
                continue
            }
            out += CelebrationRulesCheck.check(text, file: name)
        }
        return out
    }

    /// The findings for one rules file's text.
    static func check(_ text: String, file: String) -> [Diagnostic] {
        var out: [Diagnostic] = []
        for (index, line) in LineEndings.normalized(text).split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let code = line.components(separatedBy: "--").first ?? ""
            for (field, value) in literals(in: code) {
                let problem: String?
                switch field {
                case "tier":
                    problem = CelebrationTier(rawValue: value) == nil
                        ? "unknown tier '\(value)' (tiny, medium or big; leave it out for a line alone)" : nil
                case "reason":
                    problem = CelebrationReason(rawValue: value) == nil
                        ? "unknown reason '\(value)'" + (CelebrationReason.suggestion(for: value).map { " (did you mean '\($0.rawValue)'?)" } ?? "") : nil
                case "pool":
                    problem = LinePool(rawValue: value) == nil
                        ? "unknown line pool '\(value)' (\(LinePool.allCases.map(\.rawValue).joined(separator: ", ")))" : nil
                default:
                    problem = nil
                }
                if let problem { out.append(Diagnostic(.celebrationRule, file: file, line: index + 1, message: problem)) }
            }
        }
        return out
    }

    /// `field = "value"` pairs on a line of Lua (double or single quotes).
    static func literals(in line: String) -> [(String, String)] {
        var out: [(String, String)] = []
        let scalars = Array(line)
        var i = 0
        while i < scalars.count {
            guard scalars[i].isLetter else { i += 1; continue }
            var j = i
            while j < scalars.count, scalars[j].isLetter || scalars[j] == "_" { j += 1 }
            let word = String(scalars[i..<j])
            var k = j
            while k < scalars.count, scalars[k] == " " { k += 1 }
            if ["tier", "reason", "pool"].contains(word), k < scalars.count, scalars[k] == "=",
               k + 1 < scalars.count, scalars[k + 1] != "=" {
                k += 1
                while k < scalars.count, scalars[k] == " " { k += 1 }
                if k < scalars.count, scalars[k] == "\"" || scalars[k] == "'" {
                    let quote = scalars[k]
                    var end = k + 1
                    while end < scalars.count, scalars[end] != quote { end += 1 }
                    if end < scalars.count { out.append((word, String(scalars[(k + 1)..<end]))) }
                    i = end + 1
                    continue
                }
            }
            i = j
        }
        return out
    }
}
