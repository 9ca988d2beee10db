import Foundation
import LuaHost
import ReflectCore

/// How a session runs: identity, injected clock, seed and sandbox limits.
public struct SessionOptions: Sendable {
    public var sessionID: String
    public var clock: FlowClock
    public var seed: UInt64
    public var limits: SandboxLimits
    /// Receives what the flow `print`s (authors' debugging).
    public var log: (@Sendable (String) -> Void)?

    public init(sessionID: String = UUID().uuidString.lowercased(), clock: FlowClock = .system(),
                seed: UInt64 = 0, limits: SandboxLimits = .default, log: (@Sendable (String) -> Void)? = nil) {
        self.sessionID = sessionID
        self.clock = clock
        self.seed = seed
        self.limits = limits
        self.log = log
    }
}
