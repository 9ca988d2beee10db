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

/// The package root (holds flows/ and locales/). Reading it also points
/// ``CompiledCache/standard`` at a cache under the temporary directory
/// (unless REFLECT_CACHE_DIR is set): tests never write to the person's
/// ~/.cache.
let repositoryRoot: URL = {
    setenv("REFLECT_CACHE_DIR", FileManager.default.temporaryDirectory.appendingPathComponent("reflect-tests-cache").path, 0)
    return URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
}()

/// The repository's English language.
func english() throws -> Language {
    try ContentLibrary(root: ContentRoot(repositoryRoot)).language(for: "en")
}

/// Runs a session to the end with the given answers, returning every event.
func drive(_ session: FlowSession, _ inputs: [AnswerInput]) throws -> [FlowEvent] {
    var events = session.openingEvents
    for input in inputs { events += try session.submit(input) }
    return events
}

extension [FlowEvent] {
    var prompts: [Prompt] { compactMap { if case .prompt(let p) = $0 { p } else { nil } } }
}

/// A journal that keeps answers in memory: a session with it reports `saved`
/// (one with no journal never does).
final class MemoryJournal: SessionJournal {
    private(set) var answers: [RecordedAnswer] = []
    func answered(_ answer: RecordedAnswer, position: Int, prompt: Prompt, safety: SafetyCategory?) throws { answers.append(answer) }
    func wentBack(from step: StepID) throws {}
    func detected(_ type: DistortionType, step: StepID) throws {}
    func probed(step: StepID) throws {}
    func finished(_ summary: DoneSummary) throws {}
}
