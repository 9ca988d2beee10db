import LuaHost

/// Reading a table's fields by name: a copied ``LuaTable``, or
/// ``NamedFields`` read where the table crossed.
protocol FieldLookup {
    subscript(name: String) -> LuaValue { get }
}

/// `table[name]`, as it was read before.
extension LuaTable: FieldLookup {}

/// Some named fields of a table that crossed into a host call, read in one
/// pass (names compared as bytes; no String per key, no ``LuaTable``):
/// `s:generate`'s and `s:feedback`'s.
///
/// Contract: `fields[name]` is what `table[name]` of the decoded table is
/// (`.nil` when absent), for every name: one of `names` is looked up in
/// what the pass kept, any other in the table itself.
struct NamedFields: FieldLookup {
    private let view: LuaTableView
    private let names: [StaticString]
    private var values: [LuaValue]

    /// `names` are string literals (their bytes are compared, no String is made).
    init(_ view: LuaTableView, names: [StaticString]) {
        self.view = view
        self.names = names
        var values = [LuaValue](repeating: .nil, count: names.count)
        view.forEachField { field in
            guard let key = field.name, let i = Self.index(of: key, in: names) else { return }
            values[i] = field.value // a later duplicate wins, as in the table
        }
        self.values = values
    }

    private static func index(of key: UnsafeRawBufferPointer, in names: [StaticString]) -> Int? {
        search: for i in names.indices {
            let name = names[i]
            guard name.utf8CodeUnitCount == key.count else { continue }
            let bytes = name.utf8Start
            for j in 0..<key.count where bytes[j] != key[j] { continue search }
            return i
        }
        return nil
    }

    subscript(name: String) -> LuaValue {
        var name = name
        return name.withUTF8 { n in
            let wanted = UnsafeRawBufferPointer(n)
            if let i = Self.index(of: wanted, in: names) { return values[i] }
            var found: LuaValue = .nil
            view.forEachField { field in
                guard let key = field.name, key.count == wanted.count, key.elementsEqual(wanted) else { return }
                found = field.value
            }
            return found
        }
    }

    /// The fields `s:generate` reads.
    static let generate: [StaticString] = ["id", "purpose", "fallback", "inputs", "args", "static", "timeout", "prompt", "framework",
                                           "distortion"]
    /// The fields `s:feedback` reads.
    static let feedback: [StaticString] = ["pre", "post", "final", "inputs", "timeout", "framework", "distortion"]
}
