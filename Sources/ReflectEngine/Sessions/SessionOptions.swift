import Foundation
import LuaHost
import ReflectCore

/// How a session runs: identity, mood, injected clock, seed and limits.
public struct SessionOptions: Sendable {
    public var sessionID: String
    public var mood: Mood?
    public var clock: FlowClock
    public var seed: UInt64
    public var limits: SandboxLimits
    /// Region for crisis resources (`US`, `DE`, …); nil: the locale's default.
    public var region: String?
    /// Receives what the flow `print`s (authors' debugging).
    public var log: (@Sendable (String) -> Void)?
    /// Receives what authoring tools observe (keys resolved, unfilled placeholders).
    public var observer: (@Sendable (FlowAPI.Observation) -> Void)?

    public init(sessionID: String = UUID().uuidString.lowercased(), mood: Mood? = nil, clock: FlowClock = .system(),
                seed: UInt64 = 0, limits: SandboxLimits = .default, region: String? = nil, log: (@Sendable (String) -> Void)? = nil) {
        self.sessionID = sessionID
        self.mood = mood
        self.clock = clock
        self.seed = seed
        self.limits = limits
        self.region = region
        self.log = log
    }
}
