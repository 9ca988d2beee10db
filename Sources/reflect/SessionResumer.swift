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

    /// Why the session cannot resume as it is (nil when it can): opening it
    /// replays its answers, read-only, and stops where the flow no longer
    /// fits them (``EngineError/flowChanged(step:message:)``).
    func whyNotResumable(_ id: String) -> EngineError? {
        do { _ = try open(id) } catch let e as EngineError { return e } catch { return nil }
        return nil
    }

    func open(_ id: String) throws -> FlowSession {
        let detail = try store.detail(id)
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
        try generation.apply(to: &options, language: language, library: library, settings: store.settings(user: detail.session.user))
        return try FlowSession.open(source, language: language, options: options, resuming: save)
    }
}
