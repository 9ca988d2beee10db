import Foundation

/// How a number is written for a person in one language: the shortest text
/// of the value (``NumberScale/format(_:)``: `7`, `7.5`, `0.25`) with the
/// language's decimal separator — a comma in de, es, fr, pt-BR and every
/// other language whose convention (CLDR, through Foundation's `Locale`) is
/// one: "7,5", "in Schritten von 0,25", "Mittelwert 3,3". No grouping
/// separators (the numbers people see here are small).
///
/// Person-facing output only (the terminal, insights, the letter, the
/// digest, the report, validation messages). Machine outputs — JSON, JSONL,
/// CSV, the experiment report for product people, authors' diagnostics —
/// keep ``machine`` (a point), so they parse the same in every language.
public struct NumberText: Sendable, Equatable {
    /// "." or "," (or another language's separator).
    public let decimalSeparator: String

    public init(decimalSeparator: String) {
        self.decimalSeparator = decimalSeparator
    }

    /// The convention of the language tagged `tag` (`de`, `pt-BR`, `fr_CA`):
    /// its CLDR decimal separator; a point for a tag CLDR does not know.
    public init(localeTag tag: String) {
        let separator = Locale(identifier: tag.replacingOccurrences(of: "-", with: "_")).decimalSeparator ?? "."
        self.init(decimalSeparator: separator.isEmpty ? "." : separator)
    }

    /// Machine text: a point, always.
    public static let machine = NumberText(decimalSeparator: ".")

    /// `d` as the person reads it: `7`, `7,5`, `-0,8`.
    public func format(_ d: Double) -> String {
        localized(NumberScale.format(d))
    }

    /// A number already written in machine form (`0.25`, `-3`, `12`) in
    /// this language; any other text (words, a date) is returned unchanged.
    public func localized(_ machineText: String) -> String {
        guard decimalSeparator != ".", Self.isMachineNumber(machineText) else { return machineText }
        return machineText.replacingOccurrences(of: ".", with: decimalSeparator)
    }

    /// `-?digits(.digits)?` in ASCII.
    static func isMachineNumber(_ s: String) -> Bool {
        var body = Substring(s)
        if body.first == "-" { body = body.dropFirst() }
        let parts = body.split(separator: ".", omittingEmptySubsequences: false)
        guard !body.isEmpty, parts.count <= 2 else { return false }
        return parts.allSatisfy { !$0.isEmpty && $0.allSatisfy { $0.isASCII && $0.isNumber } }
    }
}

extension Localizer {
    /// How numbers are written in this chain's language (its first locale).
    public var numbers: NumberText { NumberText(localeTag: tag) }
}
