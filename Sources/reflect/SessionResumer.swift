import ArgumentParser
import Foundation
import LuaHost
import ReflectCore
import ReflectEngine
import ReflectStoreJournal
import ReflectStore

/// Reopens a stored session by replaying its answers.
struct SessionResumer {
    let store: Store
    let library: ContentLibrary
    /// The text provider for requests the save has no text for yet.
    var generation = GeneratorOptions()

    /// A session opened once, by replaying its answers, with what the
    /// replay read: `reflect run` asks whether the latest unfinished
    /// session can resume, and then resumes it, from one replay.
    struct Attempt {
        let id: String
        /// What the replay read (nil when reading failed).
        let detail: SessionDetail?
        let settings: Settings?
        let result: Result<FlowSession, any Error>

        /// Why the session cannot resume as it is (nil when it can): the
        /// replay stopped where the flow no longer fits its answers
        /// (``EngineError/flowChanged(step:message:)``) or it is finished.
        var whyNot: EngineError? {
            if case .failure(let e as EngineError) = result { return e }
            return nil
        }
    }

    /// Opens session `id` read-only (see ``open(_:)``), keeping what it read.
    func attempt(_ id: String) -> Attempt {
        var detail: SessionDetail?
        var settings: Settings?
        let result = Result<FlowSession, any Error> {
            try open(id, detail: &detail, settings: &settings)
        }
        return Attempt(id: id, detail: detail, settings: settings, result: result)
    }

    /// The session of `attempt`, to resume now that its lease is held: the
    /// replay's session when the stored session and the person's settings
    /// are still what the replay read, else a new replay (another process
    /// may have written to it before the lease was taken).
    func resume(_ attempt: Attempt) throws -> FlowSession {
        if let detail = attempt.detail, let settings = attempt.settings, case .success(let session) = attempt.result,
           try store.detail(attempt.id) == detail, try store.settings(user: detail.session.user) == settings {
            return session
        }
        return try open(attempt.id)
    }

    func open(_ id: String) throws -> FlowSession {
        var detail: SessionDetail?
        var settings: Settings?
        return try open(id, detail: &detail, settings: &settings)
    }

    private func open(_ id: String, detail read: inout SessionDetail?, settings readSettings: inout Settings?) throws -> FlowSession {
        let detail = try store.detail(id)
        read = detail
        guard detail.session.status == .active else {
            throw EngineError.sessionFinished
        }
        let save = try SessionSave(detail)
        let source = try library.catalog.source(for: save.flow)
        // The arms the session started with (its save), never a fresh assignment.
        let language = try library.language(for: save.locale, personality: detail.session.personality, variants: save.variants)
        var options = SessionOptions(sessionID: id, log: flowLog)
        // A request the save has not fulfilled yet (an edited answer) searches the store.
        options.relatedEntries = StoreRelatedEntries(store: store, user: detail.session.user,
                                                     avoiding: save.facts?.profile?.avoidTopics ?? [])
        let settings = try store.settings(user: detail.session.user)
        readSettings = settings
        try generation.apply(to: &options, language: language, library: library, settings: settings)
        return try FlowSession.open(source, language: language, options: options, resuming: save)
    }
}
