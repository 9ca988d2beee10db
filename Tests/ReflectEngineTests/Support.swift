import Foundation
import ReflectCore
@testable import ReflectEngine

/// A fixed morning in Berlin, so tests never depend on the real clock.
let morning = FlowClock(iso8601: "2026-11-22T08:15:00+01:00")!
let evening = FlowClock(iso8601: "2026-11-22T21:40:00+01:00")!

func options(seed: UInt64 = 42, clock: FlowClock = morning) -> SessionOptions {
    SessionOptions(sessionID: "test-session", clock: clock, seed: seed)
}

func source(_ name: String, _ text: String) -> FlowSource {
    FlowSource(name: name, text: text)
}

extension FlowSession {
    /// Submits answers in order; fails the test on an engine error.
    @discardableResult
    func answer(_ inputs: AnswerInput...) throws -> [FlowEvent] {
        var events: [FlowEvent] = []
        for input in inputs { events += try submit(input) }
        return events
    }
}
