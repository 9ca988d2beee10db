import Foundation
import LuaHost
import ReflectCore

/// Cancels the Lua state a session (or a series of sessions run one after
/// another) runs on, from any thread: the latest one created, and any
/// created later (going back replaces a session's state). The call in
/// progress ends with `lua.cancelled` at its next budget check; so does
/// every later call.
public final class SessionCancellation: @unchecked Sendable {
    private let lock = NSLock()
    private var latest: LuaCancellation?
    private var cancelled = false

    public init() {}

    public var isCancelled: Bool { lock.withLock { cancelled } }

    public func cancel() {
        let current = lock.withLock { () -> LuaCancellation? in
            cancelled = true
            return latest
        }
        current?.cancel()
    }

    /// Called for each new state; cancels it at once when already cancelled.
    func register(_ state: LuaCancellation) {
        let already = lock.withLock { () -> Bool in
            if !cancelled { latest = state }
            return cancelled
        }
        if already { state.cancel() }
    }
}

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
    /// Stops the session's running and later Lua calls from any thread
    /// (an authoring tool's overall deadline); nil: never cancelled.
    public var cancellation: SessionCancellation?
    /// The person's facts, snapshotted into the save when a new session
    /// starts (a resumed session keeps the snapshot its save holds).
    public var facts: UserFacts?
    /// Fulfils `s:generate` and `s:feedback` requests; nil (the `none`
    /// provider): every request takes its fallback at once, and there is no
    /// feedback.
    public var generator: (any TextGenerator)?
    /// Fulfils `s:related` (the person's related past entries; read-only);
    /// nil: every request finds nothing.
    public var relatedEntries: (any RelatedEntrySource)?
    /// The person's "Show celebrations" setting: false means no
    /// celebration events and none stored (achievements are still recorded).
    public var celebrations = true
    /// Prompt templates and the final question's advice markers (`prompts/`).
    public var prompts = PromptLibrary()

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
