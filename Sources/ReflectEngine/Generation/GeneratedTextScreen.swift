import Foundation
import ReflectCore

/// The checks every generated text passes before a person sees it
/// (generation spec §3 and §6).
///
/// - ``screen(_:context:)``, for every text: the output filter (personal
///   data, the medical boundary) and the crisis gate. A medical block is
///   replaced by the locale's medical line, a crisis mention by the
///   de-escalation message with the region's crisis lines, any other block
///   by the safety fallback line.
/// - ``finalQuestionProblem(_:inputs:)``, for a final question: one
///   question, under 25 words, ending with "?", reusing a phrase of an
///   earlier answer, no advice (the locale's markers, `prompts/rules.yaml`).
///
/// Reasons are short codes (`pii.phone`, `medical.medication`,
/// `crisis.self_harm`, `rule.too_long`): they are logged as an event kind
/// and a time, never with the text.
public struct GeneratedTextScreen: Sendable {
    public let language: Language
    /// The region whose crisis lines a de-escalation lists.
    public let region: String
    public let adviceMarkers: [String]
    /// Second-person words read in the first person (`prompts/rules.yaml`).
    public let perspective: [String: String]

    public init(language: Language, region: String, prompts: PromptLibrary) {
        self.language = language
        self.region = region
        let tags = language.localizer.chain.map(\.tag)
        adviceMarkers = prompts.adviceMarkers(for: tags)
        perspective = prompts.perspectiveWords(for: tags)
    }

    /// A generated text after screening: what may be shown, and why the
    /// original was replaced, if it was.
    public struct Screened: Sendable, Equatable {
        public var text: String
        /// Nil when the text passed.
        public var reason: String?
        /// The crisis category when the text was replaced by a de-escalation message.
        public var crisis: SafetyCategory?
        /// The crisis lines that go with a de-escalation message.
        public var resources: [String] = []
    }

    /// The output filter, then the crisis gate. `context` is what the person
    /// typed (a drug they named may be named back).
    public func screen(_ text: String, context: String = "") -> Screened {
        let filtered = language.screen(generated: text, context: context)
        if let blocked = filtered.blocked { return Screened(text: filtered.text, reason: blocked.rawValue) }
        // The gate's lists are written as a person speaks of themselves;
        // generated text speaks to the person ("do you want to hurt yourself?").
        let verdict = [text, firstPerson(text)].lazy.map(language.safety.check).first { $0 != .ok }
        if case .crisis(let category)? = verdict {
            let message = language.safetyMessage(for: category) ?? language.string(.safetyMessage)
            return Screened(text: message, reason: "crisis.\(category.rawValue)", crisis: category,
                            resources: language.resources(for: region, category: category))
        }
        return Screened(text: text, reason: nil)
    }

    /// `text` with its second-person words replaced by their first-person
    /// reading (whole words, case ignored; everything else kept).
    func firstPerson(_ text: String) -> String {
        guard !perspective.isEmpty else { return text }
        var out = "", word = ""
        func flush() {
            if !word.isEmpty { out += perspective[word.lowercased()] ?? word }
            word = ""
        }
        for ch in text.replacingOccurrences(of: "’", with: "'") {
            if ch.isLetter || ch == "'" { word.append(ch) } else {
                flush()
                out.append(ch)
            }
        }
        flush()
        return out
    }

    /// Why `text` is not a usable final question (a `rule.*` code), or nil.
    public func finalQuestionProblem(_ text: String, inputs: [String]) -> String? {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        let marks = trimmed.filter { $0 == "?" || $0 == "？" }.count
        guard let last = trimmed.last, last == "?" || last == "？" else { return "rule.not_a_question" }
        guard marks == 1 else { return "rule.two_questions" }
        guard !trimmed.contains("\n") else { return "rule.two_questions" }
        guard GeneratedTextScreen.wordCount(trimmed) < 25 else { return "rule.too_long" }
        let words = GeneratedTextScreen.words(trimmed)
        let padded = " " + words.joined(separator: " ") + " "
        for marker in adviceMarkers where !marker.isEmpty {
            let m = GeneratedTextScreen.words(marker).joined(separator: " ")
            if m.isEmpty { continue }
            if GeneratedTextScreen.isSpaced(marker) ? padded.contains(" \(m) ") : padded.contains(m) { return "rule.advice" }
        }
        guard inputs.contains(where: { GeneratedTextScreen.reusesPhrase(of: $0, in: trimmed) }) else { return "rule.no_quote" }
        return nil
    }

    /// Why `text` is not a usable chat reply (a `rule.*` code), or nil
    /// (generation spec §5: under 200 words, ends with a question). What
    /// may follow the question mark: closing quotes or brackets and emoji
    /// ("What would help? 🌱").
    public static func chatReplyProblem(_ text: String, maxWords: Int) -> String? {
        guard wordCount(text) < maxWords else { return "rule.too_long" }
        guard endsWithQuestion(text) else { return "rule.not_a_question" }
        return nil
    }

    /// Whether the last sentence of `text` is a question: its last mark,
    /// past spaces, closing quotes or brackets and emoji, is "?", "？" or "؟".
    public static func endsWithQuestion(_ text: String) -> Bool {
        for scalar in text.unicodeScalars.reversed() {
            let p = scalar.properties
            if scalar == "?" || scalar == "？" || scalar == "؟" { return true }
            let trailing = p.isWhitespace || p.isDefaultIgnorableCodePoint || p.isVariationSelector
                || p.generalCategory == .finalPunctuation || p.generalCategory == .closePunctuation
                || (p.isEmoji && scalar.value > 0xFF) || p.isEmojiModifier
                || scalar == "\"" || scalar == "'" || scalar == "*" || scalar == "_"
            if !trailing { return false }
        }
        return false
    }

    // MARK: - Text measures

    /// Words as a reader counts them: runs between spaces; in scripts
    /// written without spaces (Chinese characters, kana), every three
    /// characters count as one word.
    public static func wordCount(_ text: String) -> Int {
        var count = 0
        for token in text.split(whereSeparator: \.isWhitespace) {
            let dense = token.unicodeScalars.filter(isDense).count
            count += dense == 0 ? 1 : max(1, (dense + 2) / 3)
        }
        return count
    }

    /// Whether `phrase` of an answer is reused in `text`: two consecutive
    /// words of it (at least 6 letters together) appear together, or, for
    /// text written without spaces, four consecutive characters.
    public static func reusesPhrase(of answer: String, in text: String) -> Bool {
        let a = words(answer), t = words(text)
        guard !a.isEmpty else { return false }
        if answer.unicodeScalars.contains(where: isDense) {
            let chars = Array(a.joined()), hay = t.joined()
            guard chars.count >= 4 else { return hay.contains(String(chars)) }
            for i in 0...(chars.count - 4) where hay.contains(String(chars[i..<(i + 4)])) { return true }
            return false
        }
        let pairs = Set(zip(t, t.dropFirst()).map { "\($0) \($1)" })
        return zip(a, a.dropFirst()).contains { $0.count + $1.count >= 6 && pairs.contains("\($0) \($1)") }
    }

    /// Lowercased words without accents or punctuation.
    static func words(_ text: String) -> [String] {
        let folded = text.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
            .replacingOccurrences(of: "’", with: "'")
        var out: [String] = [], current = ""
        for ch in folded {
            if ch.isLetter || ch.isNumber || ch == "'" {
                current.append(ch)
            } else if !current.isEmpty {
                out.append(current)
                current = ""
            }
        }
        if !current.isEmpty { out.append(current) }
        return out
    }

    static func isSpaced(_ text: String) -> Bool { !text.unicodeScalars.contains(where: isDense) }

    /// Han, kana: scripts written without spaces between words.
    static func isDense(_ s: Unicode.Scalar) -> Bool {
        (0x3040...0x30FF).contains(s.value) || (0x3400...0x9FFF).contains(s.value) || (0xF900...0xFAFF).contains(s.value)
    }
}
