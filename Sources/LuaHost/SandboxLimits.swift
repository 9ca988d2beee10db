import CLuaSandbox

/// The limits of one sandboxed state. The defaults are safe for flows: a
/// runaway loop stops within 20 million instructions or half a second, a
/// memory bomb at 16 MiB.
public struct SandboxLimits: Sendable, Equatable {
    /// Cap on every byte the state allocates.
    public var memoryBytes: Int
    /// VM instructions one top-level call may run (nested host calls share it).
    public var instructionsPerCall: UInt64
    /// Wall-clock time one top-level call may take, in seconds.
    public var secondsPerCall: Double
    /// How often the count hook checks the budget (in instructions). Smaller
    /// is more precise and slower.
    public var hookInterval: Int
    /// Longest subject a pattern with quantifiers may scan.
    public var patternSubjectMaxBytes: Int
    /// Upper bound of the backtracking estimate a pattern call may reach.
    public var patternCostMax: Double
    /// Deepest table nesting that may cross into the host.
    public var valueDepthMax: Int
    /// Most values (table entries included) one crossing may carry.
    public var valueNodesMax: Int
    /// Deepest Lua recursion, enforced once a state has used half its memory
    /// (deeper recursion fails as "stack overflow" before the memory cap).
    public var callDepthMax: Int
    /// Host memory one value crossing from Lua may take once decoded in
    /// Swift (strings at their length, every value and table entry at
    /// ``LuaCodec/hostBytesPerValue``). Strings are copied per reference, so
    /// a table repeating one 1 MB string 100 times costs 100 MB here; past
    /// this allowance the crossing fails with `.host(.invalidValue)` before
    /// anything is copied. The C encoder holds its buffer to the same
    /// allowance, so the refusal comes before the host copies anything.
    public var hostBytesPerCrossing: Int

    public static var `default`: SandboxLimits {
        var raw = rlua_limits()
        rlua_limits_default(&raw)
        return SandboxLimits(raw)
    }

    init(_ raw: rlua_limits) {
        memoryBytes = raw.memory_bytes
        instructionsPerCall = raw.instructions
        secondsPerCall = raw.seconds
        hookInterval = Int(raw.hook_interval)
        patternSubjectMaxBytes = raw.pattern_subject_max
        patternCostMax = raw.pattern_cost_max
        valueDepthMax = Int(raw.value_depth_max)
        valueNodesMax = Int(raw.value_nodes_max)
        callDepthMax = Int(raw.call_depth_max)
        hostBytesPerCrossing = raw.crossing_bytes_max
    }

    var raw: rlua_limits {
        rlua_limits(
            memory_bytes: max(memoryBytes, 64 * 1024),
            instructions: max(instructionsPerCall, 1),
            seconds: secondsPerCall > 0 ? secondsPerCall : 0.5,
            hook_interval: Int32(clamping: max(hookInterval, 1)),
            pattern_subject_max: max(patternSubjectMaxBytes, 0),
            pattern_cost_max: patternCostMax,
            value_depth_max: Int32(clamping: valueDepthMax),
            value_nodes_max: Int32(clamping: valueNodesMax),
            call_depth_max: Int32(clamping: max(callDepthMax, 100)),
            crossing_bytes_max: max(hostBytesPerCrossing, 64 * 1024))
    }
}
