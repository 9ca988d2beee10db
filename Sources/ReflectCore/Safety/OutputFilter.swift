import Foundation

/// Checks generated text (coach replies, feedback) before anyone sees it:
/// no personal data, no medical claims. A blocked text is replaced by the
/// caller (``Reason/isMedical``: the locale's medical line, else the safety
/// fallback), and the reason is recorded.
///
/// - PII: e-mail addresses; phone numbers (7–15 digits) except the crisis
///   lines and helplines of the locale's resources; US social security
///   numbers (ddd-dd-dddd); card numbers (13–19 digits passing the Luhn
///   check). Dates and times are not phone numbers.
/// - Medical boundary, from the locale's `medical` lists:
///   - `diagnosis`: diagnosing or labelling in the second person ("you
///     suffer from {condition}", "your diagnosis is", "I diagnose you with"),
///     telling someone to get diagnosed with a named condition;
///   - `medication`: suggesting, dosing or stopping medication ("have you
///     considered medication", "a doctor might prescribe", "you should take
///     {medication}");
///   - `naming`: naming a drug at all ("sertraline can take the edge off").
///     A drug the person named in what they typed (`context`) may be named
///     back ("you mentioned your sertraline"); a suggestion still is not.
///   Written with condition and medication slots, so "you have the
///   strength", "you should take a walk" and "a therapist could help" pass.
public struct OutputFilter: Sendable {
    public enum Reason: String, Sendable, Equatable, CaseIterable {
        case email = "pii.email"
        case phone = "pii.phone"
        case nationalID = "pii.national_id"
        case card = "pii.card"
        case diagnosis = "medical.diagnosis"
        case medication = "medical.medication"

        /// Whether the text crossed the medical boundary (replaced by the
        /// medical line of the generation spec, §6).
        public var isMedical: Bool { self == .diagnosis || self == .medication }
    }

    public enum Verdict: Sendable, Equatable {
        case ok
        case blocked(Reason)
    }

    /// The kinds of a locale's `medical` lists.
    enum Kind: String, CaseIterable {
        case diagnosis, medication, naming

        var reason: Reason { self == .diagnosis ? .diagnosis : .medication }
    }

    /// Medical phrases per locale, each in its own mode.
    private let medical: [(matcher: PhraseMatcher, kinds: [Kind])]
    /// Digits of numbers that may appear (crisis lines).
    private let allowedNumbers: Set<String>

    public init(_ data: SafetyData, allowedNumbers: [String] = [], mode: PhraseMatcher.Mode = .wordBoundary) throws(LexiconError) {
        try self.init(layers: [(data, mode)], allowedNumbers: allowedNumbers)
    }

    public init(layers: [(data: SafetyData, mode: PhraseMatcher.Mode)], allowedNumbers: [String] = []) throws(LexiconError) {
        var medical: [(PhraseMatcher, [Kind])] = []
        for (data, mode) in layers {
            let present = try OutputFilter.medicalKinds(of: data)
            guard !present.isEmpty else { continue }
            medical.append((try PhraseMatcher(PhraseLexicon(priority: present.map(\.rawValue), phrases: data.medical, slots: data.slots), mode: mode),
                            present))
        }
        self.medical = medical
        self.allowedNumbers = Set(allowedNumbers.map { $0.filter(\.isNumber) }.filter { !$0.isEmpty })
    }

    private init(medical: [(matcher: PhraseMatcher, kinds: [Kind])], allowedNumbers: Set<String>) {
        self.medical = medical
        self.allowedNumbers = allowedNumbers
    }

    /// Throws exactly what building a filter from `data` would throw,
    /// without building one (see ``SafetyGate/validate(_:)``).
    public static func validate(_ data: SafetyData) throws(LexiconError) {
        let present = try medicalKinds(of: data)
        try PhraseLexicon(priority: present.map(\.rawValue), phrases: data.medical, slots: data.slots).validate()
    }

    private static func medicalKinds(of data: SafetyData) throws(LexiconError) -> [Kind] {
        for name in data.medical.keys where Kind(rawValue: name) == nil {
            throw LexiconError(category: name, phrase: "", reason: "not a medical kind ("
                + Kind.allCases.map(\.rawValue).joined(separator: ", ") + ")")
        }
        return Kind.allCases.filter { !(data.medical[$0.rawValue] ?? []).isEmpty }
    }

    /// Digits of every number in `lines` (to allow a locale's crisis lines).
    public static func numbers(in lines: [String]) -> [String] {
        lines.flatMap { OutputFilter.numberRuns(in: $0).map(\.digits) }
    }

    /// The verdict on generated text `original`. `context` is what the
    /// person typed (may be empty): a drug they named there may be named
    /// back. Linear in the length of both.
    public func check(_ original: String, context: String = "") -> Verdict {
        // Full-width digits and hyphens (０９０－１２３４) are numbers too.
        let text = original.precomposedStringWithCompatibilityMapping
        if OutputFilter.containsEmail(text) { return .blocked(.email) }
        for run in OutputFilter.numberRuns(in: text) {
            if (13...19).contains(run.digits.count), OutputFilter.luhn(run.digits) { return .blocked(.card) }
            if OutputFilter.isSSN(run.raw) { return .blocked(.nationalID) }
            if (7...15).contains(run.digits.count), !allowedNumbers.contains(run.digits), !OutputFilter.isDateOrTime(run.raw) {
                return .blocked(.phone)
            }
        }
        var found: Reason?
        let bytes = TextNormalizer.bytes(text)
        let said = context.isEmpty ? [] : TextNormalizer.bytes(context)
        for layer in medical {
            bytes.withUnsafeBufferPointer { t in
                var named: Set<ArraySlice<UInt8>>?
                for o in layer.matcher.occurrences(normalized: t) {
                    let kind = layer.kinds[o.category]
                    if kind == .naming {
                        // The person's own mention: the same list over what they typed.
                        if named == nil {
                            named = said.withUnsafeBufferPointer { c in
                                Set(layer.matcher.occurrences(normalized: c).filter { layer.kinds[$0.category] == .naming }
                                    .map { said[$0.start..<$0.end] })
                            }
                        }
                        if named?.contains(bytes[o.start..<o.end]) == true { continue }
                    }
                    if found == nil || kind == .diagnosis { found = kind.reason }
                }
            }
        }
        return found.map { .blocked($0) } ?? .ok
    }

    static func containsEmail(_ text: String) -> Bool {
        let chars = Array(text)
        for (i, c) in chars.enumerated() where c == "@" && i > 0 {
            let local = chars[..<i].reversed().prefix { $0.isLetter || $0.isNumber || "._%+-".contains($0) }
            let domain = chars[(i + 1)...].prefix { $0.isLetter || $0.isNumber || ".-".contains($0) }
            let labels = String(domain).split(separator: ".")
            if !local.isEmpty, labels.count >= 2, let tld = labels.last, tld.count >= 2, tld.allSatisfy(\.isLetter) { return true }
        }
        return false
    }

    /// Digit sequences with single separators (space - . / ( ) +) between digits.
    static func numberRuns(in text: String) -> [(raw: String, digits: String)] {
        var out: [(String, String)] = []
        let chars = Array(text)
        var i = 0
        while i < chars.count {
            guard chars[i].isASCII, chars[i].isNumber || ((chars[i] == "+" || chars[i] == "(") && i + 1 < chars.count && chars[i + 1].isNumber) else {
                i += 1
                continue
            }
            var j = i, raw = "", digits = ""
            while j < chars.count {
                let c = chars[j]
                if c.isASCII, c.isNumber {
                    digits.append(c)
                } else if " -./()+".contains(c), j + 1 < chars.count, chars[j + 1].isASCII,
                          chars[j + 1].isNumber || (chars[j + 1] == "(" && OutputFilter.areaCode(chars, from: j + 1)) || (c == ")" && chars[j + 1] == " ") {
                    // a separator between digits, or before a bracketed area code
                } else {
                    break
                }
                raw.append(c)
                j += 1
            }
            out.append((raw.trimmingCharacters(in: .whitespaces), digits))
            i = max(j, i + 1)
        }
        return out
    }

    /// "(0)", "(555)": a bracket closing after one to four digits. "(24h)"
    /// after a number is not part of it.
    static func areaCode(_ chars: [Character], from i: Int) -> Bool {
        var j = i + 1
        while j < chars.count, j - i <= 4, chars[j].isASCII, chars[j].isNumber { j += 1 }
        return j > i + 1 && j < chars.count && chars[j] == ")"
    }

    static func luhn(_ digits: String) -> Bool {
        var sum = 0
        for (i, c) in digits.reversed().enumerated() {
            guard var d = c.wholeNumberValue else { return false }
            if i % 2 == 1 {
                d *= 2
                if d > 9 { d -= 9 }
            }
            sum += d
        }
        return sum % 10 == 0
    }

    static func isSSN(_ raw: String) -> Bool {
        let parts = raw.split(separator: "-", omittingEmptySubsequences: false)
        return parts.count == 3 && parts.map(\.count) == [3, 2, 4] && parts.allSatisfy { $0.allSatisfy(\.isNumber) }
    }

    static func isDateOrTime(_ raw: String) -> Bool {
        let parts = raw.split(whereSeparator: { "-./:".contains($0) }).map(String.init)
        guard parts.count == 3, parts.allSatisfy({ $0.allSatisfy(\.isNumber) }) else { return false }
        let lengths = parts.map(\.count)
        return lengths == [4, 2, 2] || (lengths[0] <= 2 && lengths[1] <= 2 && (lengths[2] == 2 || lengths[2] == 4))
    }
}

extension OutputFilter {
    /// The compiled filter as bytes, read back by ``init(reading:)``.
    public func write(to w: inout CompiledWriter) {
        w.u32(UInt32(medical.count))
        for layer in medical {
            layer.matcher.write(to: &w.bytes)
            w.strings(layer.kinds.map(\.rawValue))
        }
        w.strings(allowedNumbers.sorted())
    }

    /// Nil unless the bytes are a complete compiled filter whose kinds name
    /// every category its matchers can report.
    public init?(reading r: inout CompiledReader) {
        guard let n = r.count(minimumSize: 8) else { return nil }
        var medical: [(matcher: PhraseMatcher, kinds: [Kind])] = []
        for _ in 0..<n {
            var at = r.offset
            guard let m = PhraseMatcher(reading: r.bytes, at: &at) else { return nil }
            r.offset = at
            guard let names = r.strings(), names.count == m.categories.count else { return nil }
            var kinds: [Kind] = []
            for name in names {
                guard let k = Kind(rawValue: name) else { return nil }
                kinds.append(k)
            }
            medical.append((m, kinds))
        }
        guard let numbers = r.strings() else { return nil }
        self.init(medical: medical, allowedNumbers: Set(numbers))
    }
}
