import Foundation

/// Everything validation needs to know about a prompt.
public struct PromptShape: Sendable, Equatable {
    public var kind: PromptKind
    /// Option ids (choices) or item ids (checklist), in order.
    public var optionIDs: [String]
    /// The options' labels as shown, in the same order (a typed label
    /// chooses its option); may be empty.
    public var optionLabels: [String]
    /// Whether `skip` is refused.
    public var required: Bool
    /// Words accepted for yes/no and checklist marks.
    public var words: AnswerWords
    /// The scale of a `number` prompt (nil for other kinds; a number prompt
    /// without one takes no answer).
    public var scale: NumberScale?
    /// A text prompt's limit in characters (a moment's quote: 240), if any.
    public var maxCharacters: Int?

    public init(kind: PromptKind, optionIDs: [String] = [], optionLabels: [String] = [], required: Bool = true,
                words: AnswerWords = .english, scale: NumberScale? = nil, maxCharacters: Int? = nil) {
        self.kind = kind
        self.optionIDs = optionIDs
        self.optionLabels = optionLabels
        self.required = required
        self.words = words
        self.scale = scale
        self.maxCharacters = maxCharacters
    }

    /// The range an intensity answer must fall in.
    public static let intensityRange = 0...10

    /// Validates an answer (commands other than `skip` are handled by the
    /// session, not here).
    ///
    /// Text takes any string up to ``SessionSave/maxTextBytes`` without a
    /// NUL, and not only blanks when required; intensity a
    /// whole number 0–10 (a numeric string such as "7", full-width "７" or
    /// in any script's decimal digits, Arabic-Indic "٧", counts; "abc", 11 and 7.5 do not); a number a value of its scale (as a
    /// number or as text, with a decimal point or comma: "7.25", "7,25"),
    /// stored as an integer when whole; yes/no a boolean or the language's
    /// yes/no words; a choice a known option id, its 1-based number as text
    /// (full-width digits too) or its label as shown (case and accents
    /// aside); multi-choice distinct known options, by the same means,
    /// separated by commas (also "，" and "、") or spaces;
    /// a checklist a mark for every item; message and action an
    /// acknowledgement (Enter, an empty text or the language's "done";
    /// other text is refused with `ack_expected`).
    public func validate(_ input: AnswerInput) -> Result<AnswerValue, InvalidAnswer> {
        if case .command(.skip) = input {
            return required ? .failure(InvalidAnswer("required", "This question needs an answer.")) : .success(.skipped)
        }
        switch (kind, input) {
        case (_, .command):
            return .failure(InvalidAnswer("command", "That command cannot be used here."))
        case (.text, .text(let s)):
            guard s.utf8.count <= SessionSave.maxTextBytes else {
                return .failure(InvalidAnswer("too_long", "That is longer than \(SessionSave.maxTextBytes) bytes; please shorten it."))
            }
            // A NUL cannot be stored whole nor quoted into a later question.
            guard !PromptShape.containsNUL(s) else {
                return .failure(InvalidAnswer("nul", "That contains a NUL character (U+0000), which cannot be kept; please retype it."))
            }
            if let limit = maxCharacters, s.count > limit {
                return .failure(InvalidAnswer("too_many_characters", "Please keep it to \(limit) characters (this has \(s.count)).",
                                              arguments: ["\(limit)", "\(s.count)"]))
            }
            // Blank text does not answer a required question.
            if required, s.unicodeScalars.allSatisfy({ $0.properties.isWhitespace || $0.properties.isDefaultIgnorableCodePoint }) {
                return .failure(InvalidAnswer("required", "This question needs an answer."))
            }
            return .success(.text(s))
        case (.text, _):
            return .failure(InvalidAnswer("text_expected", "Please answer in words."))
        case (.intensity, .number(let d)):
            return PromptShape.intensity(d)
        case (.intensity, .text(let s)):
            guard let d = Double(PromptShape.halfWidth(s)) else { return PromptShape.intensity(.nan) }
            return PromptShape.intensity(d)
        case (.intensity, _):
            return PromptShape.intensity(.nan)
        case (.number, .number(let d)):
            return number(d)
        case (.number, .text(let s)):
            return number(NumberScale.parse(s) ?? .nan)
        case (.number, _):
            return number(.nan)
        case (.yesNo, .boolean(let b)):
            return .success(.boolean(b))
        case (.yesNo, .text(let s)):
            guard let b = words.boolean(s) else { return .failure(InvalidAnswer("yes_no", "Please answer yes or no.")) }
            return .success(.boolean(b))
        case (.yesNo, _):
            return .failure(InvalidAnswer("yes_no", "Please answer yes or no."))
        case (.singleChoice, .choose(let id)), (.singleChoice, .text(let id)):
            guard let id = resolve(id) else { return .failure(unknownOption) }
            return .success(.choice(id))
        case (.singleChoice, _):
            return .failure(unknownOption)
        case (.multiChoice, .chooseMany(let ids)):
            return choices(ids)
        case (.multiChoice, .choose(let id)):
            return choices([id])
        case (.multiChoice, .text(let s)):
            // One label with spaces ("A walk") is one option.
            if let one = resolve(s) { return choices([one]) }
            // Commas separate; within a part, a label with spaces is one
            // option, else spaces separate too ("1 3", "tense numb").
            var parts: [String] = []
            for part in PromptShape.halfWidth(s).split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }) {
                if resolve(part) != nil { parts.append(part) } else { parts += part.split(separator: " ").map(String.init) }
            }
            return choices(parts)
        case (.multiChoice, _):
            return .failure(unknownOption)
        case (.checklist, .checklist(let raw)):
            var marks: [String: ChecklistMark] = [:]
            for (item, mark) in raw.sorted(by: { $0.key < $1.key }) {
                guard optionIDs.contains(item) else { return .failure(InvalidAnswer("checklist_item", "'\(item)' is not on this checklist.")) }
                guard let m = words.mark(mark) else {
                    return .failure(InvalidAnswer("checklist_mark", "Mark each item done, partly or skip."))
                }
                marks[item] = m
            }
            guard marks.count == optionIDs.count else {
                return .failure(InvalidAnswer("checklist_incomplete", "Mark every item: done, partly or skip."))
            }
            return .success(.checklist(marks))
        case (.checklist, _):
            return .failure(InvalidAnswer("checklist_incomplete", "Mark every item: done, partly or skip."))
        case (.action, .acknowledge), (.message, .acknowledge):
            return .success(.acknowledged)
        case (.action, .text(let s)), (.message, .text(let s)):
            // An action and a message take no words: Enter (an empty line),
            // the language's "done" or the button's label acknowledges them;
            // other text is refused, never silently dropped (it would not be kept).
            if s.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty || words.mark(s) == .done || resolve(s) != nil {
                return .success(.acknowledged)
            }
            return .failure(InvalidAnswer.ackExpected)
        case (.action, _), (.message, _):
            return .failure(InvalidAnswer.ackExpected)
        }
    }

    /// Whether a stored answer still fits this prompt (replaying a save or
    /// offering a draft after the flow changed).
    public func accepts(_ value: AnswerValue) -> Bool {
        switch (kind, value) {
        case (_, .skipped): return !required
        case (.text, .text(let s)): return maxCharacters.map { s.count <= $0 } ?? true
        case (.yesNo, .boolean), (.message, .acknowledged), (.action, .acknowledged): return true
        case (.intensity, .integer(let i)): return PromptShape.intensityRange.contains(i)
        case (.number, .integer), (.number, .number): return scale?.contains(value) ?? false
        case (.singleChoice, .choice(let id)): return optionIDs.contains(id)
        case (.multiChoice, .choices(let ids)):
            return Set(ids).isSubset(of: optionIDs) && Set(ids).count == ids.count && !(required && ids.isEmpty)
        case (.checklist, .checklist(let marks)): return Set(marks.keys) == Set(optionIDs)
        default: return false
        }
    }

    private var unknownOption: InvalidAnswer {
        InvalidAnswer("choice_unknown", "Please choose one of: \(optionIDs.joined(separator: ", ")).")
    }

    /// An option id, its 1-based number typed as text, or its label.
    private func resolve(_ raw: String) -> String? {
        let s = raw.trimmingCharacters(in: .whitespaces)
        if optionIDs.contains(s) { return s }
        if let n = Int(PromptShape.halfWidth(s)), n >= 1, n <= optionIDs.count { return optionIDs[n - 1] }
        let key = TextNormalizer.string(s)
        guard !key.isEmpty else { return nil }
        for (i, label) in optionLabels.enumerated() where i < optionIDs.count && TextNormalizer.string(label) == key {
            return optionIDs[i]
        }
        return nil
    }

    /// Digits and separators as typed on any keyboard, as ASCII: every
    /// Unicode decimal digit (full-width ７, Arabic-Indic ٧, Persian ۷,
    /// Devanagari ७ …), full-width separators (，, ．, －), the ideographic
    /// comma 、, the Arabic comma ، and decimal separator ٫; trimmed.
    static func halfWidth(_ s: String) -> String {
        var out = String.UnicodeScalarView()
        for scalar in s.unicodeScalars {
            if scalar.value > 0x7F, scalar.properties.numericType == .decimal,
               let v = scalar.properties.numericValue, v >= 0, v <= 9, let digit = Unicode.Scalar(0x30 + UInt32(v)) {
                out.append(digit)
                continue
            }
            switch scalar.value {
            case 0xFF0C, 0x3001, 0x060C: out.append(",")
            case 0xFF0E, 0x066B: out.append(".")
            case 0xFF0D: out.append("-")
            case 0x3000: out.append(" ")
            default: out.append(scalar)
            }
        }
        return String(out).trimmingCharacters(in: .whitespaces)
    }

    private func choices(_ raw: [String]) -> Result<AnswerValue, InvalidAnswer> {
        var ids: [String] = []
        for r in raw where !r.isEmpty {
            guard let id = resolve(r) else { return .failure(unknownOption) }
            if !ids.contains(id) { ids.append(id) }
        }
        if ids.isEmpty && required { return .failure(InvalidAnswer("required", "Please choose at least one.")) }
        return .success(.choices(ids))
    }

    private func number(_ d: Double) -> Result<AnswerValue, InvalidAnswer> {
        guard let scale else { return .failure(InvalidAnswer("number_range", "This question has no scale to answer on.")) }
        if let v = scale.snap(d) { return .success(NumberScale.answer(v)) }
        let (lo, hi, step) = (NumberScale.format(scale.min), NumberScale.format(scale.max), NumberScale.format(scale.step))
        return .failure(InvalidAnswer("number_range", "Please enter a number from \(lo) to \(hi), in steps of \(step).",
                                      arguments: [lo, hi, step]))
    }

    private static func intensity(_ d: Double) -> Result<AnswerValue, InvalidAnswer> {
        guard d.isFinite, d == d.rounded(), d >= Double(intensityRange.lowerBound), d <= Double(intensityRange.upperBound)
        else { return .failure(InvalidAnswer("intensity_range", "Please enter a whole number from 0 to 10.")) }
        return .success(.integer(Int(d)))
    }
}

extension PromptShape {
    /// Whether `s` holds a NUL byte: over the contiguous UTF-8 (a native
    /// string's) eight bytes at a time, else byte by byte.
    static func containsNUL(_ s: String) -> Bool {
        if let found = s.utf8.withContiguousStorageIfAvailable({ b -> Bool in
            guard let base = b.baseAddress else { return false }
            let raw = UnsafeRawPointer(base)
            var i = 0
            let n = b.count
            while i + 8 <= n {
                let w = raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)
                // A zero byte sets its high bit in (w - 0x01…) & ~w & 0x80….
                if (w &- 0x0101_0101_0101_0101) & ~w & 0x8080_8080_8080_8080 != 0 { return true }
                i += 8
            }
            while i < n {
                if b[i] == 0 { return true }
                i += 1
            }
            return false
        }) { return found }
        return s.utf8.contains(0)
    }
}
