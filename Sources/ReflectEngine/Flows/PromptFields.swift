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
            guard let field = Field(name) else {
                hasUnknown = true
                return
            }
            take(field, value, kind: kind)
        }
    }

    /// The same reading from the table where it crossed (``LuaTableView``):
    /// names compared as bytes, only the fields' values decoded.
    init(_ table: LuaTableView, kind: PromptKind) {
        table.forEachField { f in
            guard let name = f.name else { return }
            guard let field = Field(name) else {
                hasUnknown = true
                return
            }
            take(field, f.value, kind: kind)
        }
    }

    private mutating func take(_ field: Field, _ value: LuaValue, kind: PromptKind) {
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

    /// The field names any prompt may take, told apart by length first
    /// (one comparison or two instead of a dozen).
    private enum Field {
        case id, text, args, fallback, hint, required, progress, probe, options, items, button, maxChars
        /// `min`, `max`, `step`, `min_label`, `max_label` (a number prompt's).
        case scale

        init?(_ name: String) {
            var name = name
            guard let field = name.withUTF8({ Field(UnsafeRawBufferPointer($0)) }) else { return nil }
            self = field
        }

        init?(_ name: UnsafeRawBufferPointer) {
            func `is`(_ literal: StaticString) -> Bool {
                guard name.count == literal.utf8CodeUnitCount else { return false }
                let l = literal.utf8Start
                for i in 0..<name.count where name[i] != l[i] { return false }
                return true
            }
            let field: Field?
            switch name.count {
            case 2: field = `is`("id") ? .id : nil
            case 3: field = `is`("min") || `is`("max") ? .scale : nil
            case 4: field = `is`("text") ? .text : `is`("args") ? .args : `is`("hint") ? .hint : `is`("step") ? .scale : nil
            case 5: field = `is`("probe") ? .probe : `is`("items") ? .items : nil
            case 6: field = `is`("button") ? .button : nil
            case 7: field = `is`("options") ? .options : nil
            case 8: field = `is`("fallback") ? .fallback : `is`("required") ? .required : `is`("progress") ? .progress : nil
            case 9: field = `is`("max_chars") ? .maxChars : `is`("min_label") || `is`("max_label") ? .scale : nil
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
