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
            guard case .string(let name) = key, let field = Field(name) else {
                if case .string = key { hasUnknown = true }
                return
            }
            switch field {
            case .id: id = value
            case .text: text = value
            case .args: args = value
            case .fallback: fallback = value
            case .hint: hint = value
            case .required: required = value
            case .progress: progress = value
            case .probe: probe = value
            case .options where kind == .singleChoice || kind == .multiChoice: list = value
            case .items where kind == .checklist: list = value
            case .button where kind == .action: button = value
            case .maxChars where kind == .text: maxChars = value
            case .scale: if kind != .number { hasUnknown = true }
            default: hasUnknown = true
            }
        }
    }

    /// The field names any prompt may take, told apart by length first
    /// (one comparison or two instead of a dozen).
    private enum Field {
        case id, text, args, fallback, hint, required, progress, probe, options, items, button, maxChars
        /// `min`, `max`, `step`, `min_label`, `max_label` (a number prompt's).
        case scale

        init?(_ name: String) {
            let field: Field?
            switch name.utf8.count {
            case 2: field = name == "id" ? .id : nil
            case 3: field = name == "min" || name == "max" ? .scale : nil
            case 4:
                switch name {
                case "text": field = .text
                case "args": field = .args
                case "hint": field = .hint
                case "step": field = .scale
                default: field = nil
                }
            case 5: field = name == "probe" ? .probe : name == "items" ? .items : nil
            case 6: field = name == "button" ? .button : nil
            case 7: field = name == "options" ? .options : nil
            case 8: field = name == "fallback" ? .fallback : name == "required" ? .required : name == "progress" ? .progress : nil
            case 9: field = name == "max_chars" ? .maxChars : name == "min_label" || name == "max_label" ? .scale : nil
            default: field = nil
            }
            guard let field else { return nil }
            self = field
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
