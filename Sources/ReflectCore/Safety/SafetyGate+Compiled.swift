/// The safety gate's compiled form: every layer's matchers and rules as
/// bytes, so that a host can keep a compiled gate on disk instead of
/// expanding and compiling the lists at every start (see
/// ``CompiledBytes``; the host owns where the bytes live and what they are
/// keyed by).
extension SafetyGate {
    /// Bumped whenever the compiled layout or anything that decides what a
    /// compiled gate contains (normalisation, squeezing, expansion) changes.
    public static let compiledFormat: UInt32 = 7

    /// The gate as bytes, read back by ``init(compiled:)``.
    public func compiled() -> [UInt8] {
        var out: [UInt8] = Array("RFSG".utf8)
        CompiledBytes.append(SafetyGate.compiledFormat, to: &out)
        CompiledBytes.append(UInt32(layers.count), to: &out)
        for layer in layers {
            let optionals = [layer.negation, layer.negationSqueezed, layer.negationAfter, layer.negationAfterSqueezed]
            var present: UInt32 = 0
            for (i, m) in optionals.enumerated() where m != nil { present |= 1 << UInt32(i) }
            if layer.near != nil { present |= 1 << 4 }
            if layer.afterScope == .words { present |= 1 << 5 }
            if layer.unlessNear != nil { present |= 1 << 6 }
            CompiledBytes.append(present, to: &out)
            CompiledBytes.append(UInt32(layer.categories.count), to: &out)
            for c in layer.categories { CompiledBytes.append(c.rawValue, to: &out) }
            layer.near?.write(to: &out)
            layer.unlessNear?.write(to: &out)
            for pass in layer.passes { pass.write(to: &out) }
            for m in optionals { m?.write(to: &out) }
        }
        return out
    }

    /// A gate read from ``compiled()``'s bytes; nil when they are not a
    /// complete, consistent compiled gate of this format.
    public init?(compiled bytes: [UInt8]) {
        guard let read = bytes.withUnsafeBytes(SafetyGate.layers(compiled:)) else { return nil }
        self.init(compiledLayers: read)
    }

    /// A gate read from ``compiled()``'s bytes in place (a section of a
    /// larger cache file); nil as for ``init(compiled:)-([UInt8])``.
    public init?(compiled raw: UnsafeRawBufferPointer) {
        guard let read = SafetyGate.layers(compiled: raw) else { return nil }
        self.init(compiledLayers: read)
    }

    private static func layers(compiled b: UnsafeRawBufferPointer) -> [Layer]? {
        var at = 0
        guard b.count >= 4, Array(b[0..<4]) == Array("RFSG".utf8) else { return nil }
        at = 4
        guard CompiledBytes.uint32(b, &at) == SafetyGate.compiledFormat, let count = CompiledBytes.uint32(b, &at), count < 64 else { return nil }
        var layers: [Layer] = []
        for _ in 0..<count {
            guard let present = CompiledBytes.uint32(b, &at), present < 128,
                  let n = CompiledBytes.uint32(b, &at), n <= UInt32(SafetyCategory.allCases.count) else { return nil }
            var categories: [SafetyCategory] = []
            for _ in 0..<n {
                guard let name = CompiledBytes.string(b, &at), let c = SafetyCategory(rawValue: name) else { return nil }
                categories.append(c)
            }
            var near: NearRules?
            if present & (1 << 4) != 0 {
                guard let rules = NearRules(reading: b, at: &at) else { return nil }
                near = rules
            }
            var unlessNear: NearRules?
            if present & (1 << 6) != 0 {
                guard let rules = NearRules(reading: b, at: &at) else { return nil }
                unlessNear = rules
            }
            // Every index a pass can report must name a category or a term.
            guard let plain = GatePass(reading: b, at: &at, categories: categories.count, terms: near?.plainMembers.count ?? 0,
                                       unlessTerms: unlessNear?.plainMembers.count ?? 0),
                  let squeezed = GatePass(reading: b, at: &at, categories: categories.count, terms: near?.squeezedMembers.count ?? 0,
                                          unlessTerms: unlessNear?.squeezedMembers.count ?? 0)
            else { return nil }
            var optionals: [PhraseMatcher?] = []
            for i in 0..<4 {
                if present & (1 << UInt32(i)) == 0 {
                    optionals.append(nil)
                } else {
                    guard let m = PhraseMatcher(reading: b, at: &at) else { return nil }
                    optionals.append(m)
                }
            }
            layers.append(Layer(plain: plain, squeezed: squeezed, negation: optionals[0], negationSqueezed: optionals[1],
                                negationAfter: optionals[2], negationAfterSqueezed: optionals[3],
                                afterScope: present & (1 << 5) != 0 ? .words : .clause, categories: categories, near: near,
                                unlessNear: unlessNear))
        }
        return at == b.count ? layers : nil
    }
}
