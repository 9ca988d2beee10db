import Foundation

/// The scale of a `number` prompt: the legal values are `min`, `min + step`,
/// … up to `max` (sleep hours: 0–24 in steps of 0.25; mood: 1–10 in steps
/// of 1). The end labels say what the ends mean, in the session's language
/// (a low end and a high end, as the flow names them); they are display only.
public struct NumberScale: Sendable, Equatable, Codable {
    public var min: Double
    public var max: Double
    public var step: Double
    public var minLabel: String?
    public var maxLabel: String?

    /// At most this many values on one scale (a guard against `step = 1e-9`).
    public static let maxValues = 100_000
    /// The ends of a scale lie within ± this: a double holds every value
    /// there to well under ``tolerance``, so a typed answer is never taken
    /// as a value it is not (on a scale of ±2^63 in steps of 2^63, `5`
    /// was taken as 0).
    public static let maxMagnitude = 1e9
    /// The finest step: a scale's values are shown (``format(_:)``) and
    /// told apart with six decimals.
    public static let minStep = 1e-6
    /// How far a typed answer may be from a value of the scale and still be
    /// that value: binary noise (`0.1 * 3`), never a digit a person typed.
    static let tolerance = 1e-6

    enum CodingKeys: String, CodingKey {
        case min, max, step, minLabel = "min_label", maxLabel = "max_label"
    }

    public init(min: Double, max: Double, step: Double = 1, minLabel: String? = nil, maxLabel: String? = nil) {
        self.min = min
        self.max = max
        self.step = step
        self.minLabel = minLabel
        self.maxLabel = maxLabel
    }

    /// Why these bounds cannot make a scale (nil when they can): finite,
    /// `min < max`, `step` at least ``minStep``, `max - min` a whole number
    /// of steps, and at most ``maxValues`` values.
    public static func problem(min: Double, max: Double, step: Double) -> String? {
        guard min.isFinite, max.isFinite, step.isFinite else { return "min, max and step must be finite numbers" }
        guard abs(min) <= maxMagnitude, abs(max) <= maxMagnitude else {
            return "min and max must be within ±\(format(maxMagnitude))"
        }
        guard min < max else { return "min (\(format(min))) must be below max (\(format(max)))" }
        guard step > 0 else { return "step must be above 0" }
        // Values are shown and typed with at most six decimals.
        guard step >= minStep else { return "step (\(step)) must be at least \(format(minStep)): values are shown with at most six decimals" }
        let count = (max - min) / step
        guard count <= Double(maxValues) else { return "\(format(min))–\(format(max)) in steps of \(format(step)) has more than \(maxValues) values" }
        guard abs(count - count.rounded()) < 1e-9 else {
            return "max (\(format(max))) is not min (\(format(min))) plus a whole number of steps of \(format(step))"
        }
        return nil
    }

    /// The value on the scale nearest to `d` when `d` is on it (within a
    /// rounding error), else nil.
    public func snap(_ d: Double) -> Double? {
        guard d.isFinite else { return nil }
        let tolerance = Swift.min(step * 1e-6, NumberScale.tolerance)
        guard d >= min - tolerance, d <= max + tolerance else { return nil }
        let steps = ((d - min) / step).rounded()
        let snapped = Swift.min(max, min + steps * step)
        guard abs(snapped - d) <= tolerance else { return nil }
        // Round away binary noise (0.1 * 3 = 0.30000000000000004).
        return (snapped * 1e9).rounded() / 1e9
    }

    /// The stored form of a value on the scale: whole numbers are integers
    /// (so a flow gets `7`, not `7.0`, and JSON round-trips unchanged).
    public static func answer(_ d: Double) -> AnswerValue {
        if d == d.rounded(), abs(d) < 1e15 { return .integer(Int(d)) }
        return .number(d)
    }

    /// Whether a stored answer is a value of this scale.
    public func contains(_ value: AnswerValue) -> Bool {
        switch value {
        case .integer(let i): return snap(Double(i)) != nil
        case .number(let d): return d != d.rounded() && snap(d) != nil
        default: return false
        }
    }

    /// `0.25`, `24`, `-1.5`: the shortest text of a value.
    public static func format(_ d: Double) -> String {
        if d == d.rounded(), abs(d) < 1e15 { return String(Int(d)) }
        var s = String(format: "%.6f", d)
        while s.hasSuffix("0") { s.removeLast() }
        if s.hasSuffix(".") { s.removeLast() }
        return s
    }

    /// A typed number: `7`, `7.5`, `7,5` (a decimal comma, as de, es, fr,
    /// pt-BR write it), with surrounding spaces, in any script's decimal
    /// digits (full-width ７, Arabic-Indic ٧ with ٫); nil for anything else.
    public static func parse(_ text: String) -> Double? {
        let t = PromptShape.halfWidth(text)
        guard !t.isEmpty, t.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == "." || $0 == "," || $0 == "-" || $0 == "+") }),
              t.filter({ $0 == "." || $0 == "," }).count <= 1 else { return nil }
        return Double(t.replacingOccurrences(of: ",", with: "."))
    }
}
