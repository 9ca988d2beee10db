/// Every diagnostic code of the author and translator tools, with its
/// severity, readable name and one-line fix. Codes are stable: a code is
/// never reused for another problem. Each has its page in docs/diagnostics/.
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
    case celebrationRule = "R013"
    case quotedOutsideArgs = "R014"
    case localeMalformed = "L001"
    case localePlaceholders = "L002"
    case localeUnknownKey = "L003"
    case localeEmpty = "L004"
    case localeMissing = "L005"
    case localeStale = "L006"
    case localeMissingSafety = "L007"
    case localeStaleList = "L008"
    case localeMissingList = "L009"
    case personality = "P001"
    case experimentMalformed = "X001"
    case experimentUnknownKey = "X002"
    case experimentPlaceholders = "X003"
    case experimentWeights = "X004"
    case experimentOverlap = "X005"
    case prompt = "G001"

    /// A readable name, stable like the code: `reflect locales check`
    /// users know the locale findings by these (`locale.placeholders`).
    public var name: String {
        switch self {
        case .syntax: "lua.syntax"
        case .notAFlow: "flow.not_a_flow"
        case .runtime: "flow.runtime"
        case .limit: "flow.limit"
        case .unknownKey: "flow.unknown_key"
        case .untranslatedKey: "flow.untranslated_key"
        case .unfilledPlaceholder: "flow.unfilled_placeholder"
        case .totalMismatch: "flow.total_mismatch"
        case .unreachableStep: "flow.unreachable_step"
        case .duplicateFlow: "flow.duplicate"
        case .invalidStep: "flow.invalid_step"
        case .explorationBudget: "check.exploration_budget"
        case .celebrationRule: "flow.celebration_rule"
        case .quotedOutsideArgs: "flow.quoted_outside_args"
        case .localeMalformed: "locale.malformed"
        case .localePlaceholders: "locale.placeholders"
        case .localeUnknownKey: "locale.unknown_key"
        case .localeEmpty: "locale.empty"
        case .localeMissing: "locale.missing"
        case .localeStale: "locale.stale"
        case .localeMissingSafety: "locale.missing_safety"
        case .localeStaleList: "locale.stale_list"
        case .localeMissingList: "locale.missing_list"
        case .personality: "personality.invalid"
        case .experimentMalformed: "experiment.invalid"
        case .experimentUnknownKey: "experiment.unknown_key"
        case .experimentPlaceholders: "experiment.placeholders"
        case .experimentWeights: "experiment.weights"
        case .experimentOverlap: "experiment.overlap"
        case .prompt: "prompt.invalid"
        }
    }

    public var severity: Diagnostic.Severity {
        switch self {
        case .untranslatedKey, .unfilledPlaceholder, .unreachableStep, .explorationBudget, .quotedOutsideArgs, .localeMissing, .localeStale,
             .localeStaleList, .localeMissingList: .warning
        case .celebrationRule, .syntax, .notAFlow, .runtime, .limit, .unknownKey, .totalMismatch, .duplicateFlow, .invalidStep,
             .localeMalformed, .localePlaceholders, .localeUnknownKey, .localeEmpty, .localeMissingSafety, .personality,
             .experimentMalformed, .experimentUnknownKey, .experimentPlaceholders, .experimentWeights, .experimentOverlap, .prompt: .error
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
        case .invalidStep: "use only the fields the message lists (docs/flow-api.md); step ids must be unique within one run; pause only through prompts (s:ask and friends)"
        case .explorationBudget: "make the flow's steps cheaper (a loop near each prompt, or going back over many steps); results cover the runs explored"
        case .quotedOutsideArgs: "pass the answer with `args = { answer }` and a `fallback`, so \"idk\" or an empty answer reads well"
        case .localeMalformed: "fix the YAML at this line (indentation, quotes, a missing `:`)"
        case .localePlaceholders: "use exactly the English string's %@ / %1$@ placeholders"
        case .localeUnknownKey: "remove the key, or check its spelling against locales/en.yaml"
        case .localeEmpty: "write the translation, or delete the entry so English is shown"
        case .localeMissing: "translate the key (English is shown meanwhile)"
        case .localeStale: "re-translate, or run `reflect locales confirm TAG KEY` if the translation still fits"
        case .localeMissingSafety: "add a safety: section with this language's crisis phrases (docs/safety.md); the English one cannot recognise them"
        case .localeMissingList: "add the word list for this language (English is used meanwhile)"
        case .localeStaleList: "review the list against the English changes, then `reflect locales confirm TAG --lists`"
        case .personality: "fix the personality file at this line"
        case .experimentMalformed: "fix the experiment file at this line (docs/experiments.md lists the fields)"
        case .experimentUnknownKey: "use a key of locales/en.yaml, an existing locale and personality, or fix the spelling"
        case .experimentPlaceholders: "keep exactly the control text's %@ / %1$@ placeholders in the variation's text"
        case .experimentWeights: "give one weight per variation, summing to 1"
        case .experimentOverlap: "stop one of them, or give both the same namespace id with disjoint ranges"
        case .celebrationRule: "use a tier (tiny, medium, big), a reason and a pool the engine knows (docs/progress.md)"
        case .prompt: "use only the placeholders of docs/generation.md ({ENTRY}, {CONTEXT}, {EMOTION}, …), and name the file <name>.v<N>.yaml"
        }
    }
}
