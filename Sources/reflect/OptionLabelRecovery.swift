import ReflectCore
import ReflectEngine
import ReflectStore
import ReflectStoreJournal

/// Reads the labels of answers stored without their options (before schema
/// v12: only the chosen ids were kept) from the flow as it is now: the
/// session's answers are replayed on it, in the session's language, with
/// its seed, clock, facts and arms (as resume replays them; nothing is
/// written, no text is generated or searched for), and each step's options
/// are kept. Where that cannot be done, the reason is given instead, so an
/// id is never shown as if it were a label.
enum OptionLabelRecovery {
    /// The labels for `detail`'s answers that need them; nil when none does.
    static func labels(for detail: SessionDetail, library: () throws -> ContentLibrary) -> RecoveredOptionLabels? {
        guard detail.answers.contains(where: RecoveredOptionLabels.needed) else { return nil }
        let flow = detail.session.flowID
        let content: ContentLibrary
        do { content = try library() } catch {
            return RecoveredOptionLabels(options: [:], unavailable: "no flow content found to read it from")
        }
        let source: FlowSource
        do { source = try content.catalog.source(for: flow) } catch {
            return RecoveredOptionLabels(options: [:], unavailable: "the flow '\(flow)' is no longer installed")
        }
        do {
            let save = try SessionSave(detail)
            let language = try content.language(for: save.locale, personality: detail.session.personality, variants: save.variants)
            let options = SessionOptions(sessionID: detail.session.id)
            // Lenient: where the flow no longer fits the answers, the replay
            // stops, and the steps from there on have no labels.
            let session = try FlowSession.open(source, language: language, options: options, resuming: save, lenient: true)
            return RecoveredOptionLabels(options: session.replayedOptions,
                                         unavailable: "the flow '\(flow)' has changed, and replaying these answers no longer reaches this step")
        } catch {
            return RecoveredOptionLabels(options: [:], unavailable: "the flow '\(flow)' cannot replay this session now")
        }
    }
}
