import ReflectEngine
import ReflectTranslation

/// A finding of `reflect check`, as data: a stable code, where, what, and
/// how to fix it. Each code has a page, `docs/diagnostics/<code>.md`, with an
/// example and the fix. Errors fail the check; warnings do not.
public struct Diagnostic: Sendable, Equatable, Encodable {
    public enum Severity: String, Sendable, Encodable { case error, warning }

    public var severity: Severity
    public var code: String
    public var file: String
    public var line: Int?
    public var column: Int?
    public var message: String
    public var hint: String

    public init(_ code: DiagnosticCode, file: String, line: Int? = nil, column: Int? = nil, message: String) {
        severity = code.severity
        self.code = code.rawValue
        self.file = file
        self.line = line
        self.column = column
        self.message = message
        hint = code.hint
    }

    /// `flows/x.lua:7:12: error R001: message` (then the hint on its own line).
    public var description: String {
        var at = file
        if let line { at += ":\(line)" + (column.map { ":\($0)" } ?? "") }
        return "\(at): \(severity.rawValue) \(code): \(message)\n    fix: \(hint)"
    }
}

/// Every diagnostic code, with its severity and one-line fix.
public enum DiagnosticCode: String, Sendable, CaseIterable {
    case syntax = "R001"
    case notAFlow = "R002"
    case runtime = "R003"
    case limit = "R004"
    case unknownKey = "R005"
    case untranslatedKey = "R006"
    case unfilledPlaceholder = "R007"
    case totalMismatch = "R008"
    case unreachableStep = "R009"
    case duplicateFlow = "R010"
    case invalidStep = "R011"
    case explorationBudget = "R012"
    case localeMalformed = "L001"
    case localePlaceholders = "L002"
    case localeUnknownKey = "L003"
    case localeEmpty = "L004"
    case localeMissing = "L005"
    case localeStale = "L006"
    case localeMissingList = "L007"
    case localeStaleList = "L008"
    case personality = "P001"

    public var severity: Diagnostic.Severity {
        switch self {
        case .untranslatedKey, .unfilledPlaceholder, .unreachableStep, .explorationBudget, .localeMissing, .localeStale, .localeStaleList: .warning
        case .syntax, .notAFlow, .runtime, .limit, .unknownKey, .totalMismatch, .duplicateFlow, .invalidStep,
             .localeMalformed, .localePlaceholders, .localeUnknownKey, .localeEmpty, .localeMissingList, .personality: .error
        }
    }

    public var hint: String {
        switch self {
        case .syntax: "fix the Lua syntax here (a missing `end`, `)`, `}` or `,` is the usual cause)"
        case .notAFlow: "end the file with `return flow { id = ..., version = ..., run = function(s) ... end }`"
        case .runtime: "read the message at this line; `reflect dev FLOW` lets you step through the flow"
        case .limit: "look for a loop that never ends or a table that grows without bound at this line"
        case .unknownKey: "add the key to locales/en.yaml (then translate it), or fix its spelling"
        case .untranslatedKey: "translate it in that locale file (`reflect locales status TAG` lists what is left)"
        case .unfilledPlaceholder: "pass the answer with `args = { ... }`, or add a `fallback` key without the placeholder"
        case .totalMismatch: "set `total` to the number of counted questions (steps with `progress = false` and messages do not count)"
        case .unreachableStep: "no explored answer reaches this step: check the condition around it, or remove the step"
        case .duplicateFlow: "give each flow its own id"
        case .invalidStep: "step ids must be unique within one run, and every pause must be a prompt (s:ask and friends)"
        case .explorationBudget: "make the flow's steps cheaper (a loop near each prompt, or going back over many steps); results cover the runs explored"
        case .localeMalformed: "fix the YAML at this line (indentation, quotes, a missing `:`)"
        case .localePlaceholders: "use exactly the English string's %@ / %1$@ placeholders"
        case .localeUnknownKey: "remove the key, or check its spelling against locales/en.yaml"
        case .localeEmpty: "write the translation, or delete the entry so English is shown"
        case .localeMissing: "translate the key (English is shown meanwhile)"
        case .localeStale: "re-translate, or run `reflect locales confirm TAG KEY` if the translation still fits"
        case .localeMissingList: "add the word list for this language (English is used meanwhile)"
        case .localeStaleList: "review the list against the English changes, then `reflect locales confirm TAG --lists`"
        case .personality: "fix the personality file at this line"
        }
    }

    /// The code for a locale finding of `reflect locales check`: one per kind.
    static func locale(_ finding: LocaleFinding) -> DiagnosticCode {
        switch finding.kind {
        case .malformed: .localeMalformed
        case .placeholders: .localePlaceholders
        case .unknownKey: .localeUnknownKey
        case .empty: .localeEmpty
        case .missing: .localeMissing
        case .stale: .localeStale
        case .missingList: .localeMissingList
        case .staleList: .localeStaleList
        }
    }
}
