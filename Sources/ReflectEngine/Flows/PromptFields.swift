import LuaHost
import ReflectCore

/// The named fields of a prompt's table (`s:ask { id = ..., text = ... }`),
/// read in one pass over the table instead of one hashed lookup per field.
///
/// Contract: each field holds exactly what `table["name"]` holds (`.nil`
/// when absent), and ``hasUnknown`` is true exactly when
/// ``FlowAPILimits/knownFields(_:_:_:)`` with ``known(for:)`` would throw
/// (a named field the prompt's kind does not take). Fields only a `number`
/// prompt takes (`min`, `max`, `step`, `min_label`, `max_label`) are
/// accepted here and read by the caller.
struct PromptFields {
    var id: LuaValue = .nil
    var text: LuaValue = .nil
    var args: LuaValue = .nil
    var fallback: LuaValue = .nil
    var hint: LuaValue = .nil
    var required: LuaValue = .nil
    var progress: LuaValue = .nil
    var probe: LuaValue = .nil
    /// `options`, or a checklist's `items`.
    var list: LuaValue = .nil
    var button: LuaValue = .nil
    var maxChars: LuaValue = .nil
    /// A named field that `kind` does not take.
    var hasUnknown = false

    init(_ table: LuaTable, kind: PromptKind) {
        table.forEachField { key, value in
            guard case .string(let name) = key else { return }
            switch name {
            case "id": id = value
            case "text": text = value
            case "args": args = value
            case "fallback": fallback = value
            case "hint": hint = value
            case "required": required = value
            case "progress": progress = value
            case "probe": probe = value
            case "options" where kind == .singleChoice || kind == .multiChoice: list = value
            case "items" where kind == .checklist: list = value
            case "button" where kind == .action: button = value
            case "max_chars" where kind == .text: maxChars = value
            case "min", "max", "step", "min_label", "max_label": if kind != .number { hasUnknown = true }
            default: hasUnknown = true
            }
        }
    }

    /// Whether a prompt of `kind` takes a list of options (or items).
    static func hasList(_ kind: PromptKind) -> Bool { kind == .singleChoice || kind == .multiChoice || kind == .checklist }

    /// The name of `kind`'s list field.
    static func listField(for kind: PromptKind) -> String { kind == .checklist ? "items" : "options" }

    /// Every field a prompt of `kind` takes, in the order error messages list them.
    static func known(for kind: PromptKind) -> [String] {
        ["id", "text", "args", "fallback", "hint", "required", "progress", "probe"]
            + (hasList(kind) ? [listField(for: kind)] : []) + (kind == .action ? ["button"] : [])
            + (kind == .text ? ["max_chars"] : []) + (kind == .number ? ["min", "max", "step", "min_label", "max_label"] : [])
    }
}
