/// The only randomness flows get: SplitMix64 from a seed stored with the
/// session, so a replay draws exactly the same numbers.
public struct SeededRandom: RandomNumberGenerator, Sendable {
    private var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A uniform integer in `range` (no modulo bias).
    public mutating func integer(in range: ClosedRange<Int64>) -> Int64 {
        Int64.random(in: range, using: &self)
    }
}

/// The seed a new session gets when its caller names none: derived from
/// the person, the flow and the instant the session starts, so each
/// session draws its own numbers (a line pool does not show the same line
/// at every session) while a run with the same inputs (`--now`) stays
/// reproducible. Stored in the save like any seed: replay, back and resume
/// draw the same numbers whatever the clock says by then.
public enum SessionSeed {
    public static func derived(user: String, flow: String, clock: FlowClock) -> UInt64 {
        // FNV-1a 64 over the three parts (NUL-separated), then one SplitMix
        // step so nearby inputs give unrelated seeds.
        var h: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in "\(user)\u{0}\(flow)\u{0}\(clock.iso8601)".utf8 {
            h ^= UInt64(byte)
            h = h &* 0x0000_0100_0000_01B3
        }
        var mixer = SeededRandom(seed: h)
        return mixer.next()
    }
}
