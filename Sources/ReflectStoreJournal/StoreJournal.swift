import Foundation
import ReflectCore
import ReflectStore
import ReflectEngine

/// Journals a session into the SQLite store: every answer, with what it
/// led to, is one committed (and synced) transaction before anything of it
/// is shown.
public final class StoreJournal: SessionJournal {
    public let store: Store
    public let sessionID: String
    /// The session's lease (one writer per session), held as long as the
    /// journal lives; nil for callers that manage exclusivity themselves.
    public let lease: SessionLease?
    /// The session's logical day (its facts snapshot's, else the local
    /// date): the mood entry logged at the end and coach records belong to it.
    let day: String
    /// ``day`` as a calendar day (parsed once: every answer's activity day).
    let activityDay: CalendarDay?
    /// Timestamps for rows (the injected clock when given, else real time).
    let timestamp: @Sendable () -> String

    public init(store: Store, sessionID: String, day: String, lease: SessionLease? = nil,
                timestamp: @escaping @Sendable () -> String) {
        self.store = store
        self.sessionID = sessionID
        self.lease = lease
        self.day = day
        self.activityDay = CalendarDay(day)
        self.timestamp = timestamp
    }

    public func answered(_ answer: RecordedAnswer, position: Int, prompt: Prompt, outcome: AnswerOutcome) throws {
        let at = timestamp()
        let step = answer.step
        let row = AnswerRecord(sessionID: sessionID, step: step, position: position, kind: prompt.kind, question: prompt.text,
                               value: answer.value, answeredAt: at, safety: outcome.safety,
                               options: prompt.options.isEmpty ? nil : prompt.options)
        try store.recordAnswer(
            row,
            safetyEvent: outcome.safety.map { SessionEventRecord(sessionID: sessionID, kind: .safety, step: step, category: $0, at: at) },
            events: (outcome.probed ? [SessionEventRecord(sessionID: sessionID, kind: .probe, step: step, at: at)] : [])
                + outcome.generated.filter { $0.refused != nil }.map {
                    SessionEventRecord(sessionID: sessionID, kind: .generationBlocked, step: $0.id, at: at)
                },
            distortions: outcome.distortions.map { DistortionRecord(sessionID: sessionID, step: $0.step, type: $0.type, detectedAt: at) },
            generated: outcome.generated.map { GeneratedTextRecord(sessionID: sessionID, request: $0.id, text: $0.text,
                                                                   generated: $0.generated, basis: $0.basis, at: at) },
            themes: outcome.themes,
            completion: outcome.finished.map { SessionCompletion(pre: $0.pre, post: $0.post, at: at, moodDay: day) },
            coach: outcome.coach, coachDay: day, exposures: outcome.exposures,
            activityDay: activityDay,
            celebrations: outcome.celebrations.map {
                CelebrationRow(sessionID: sessionID, user: "", step: $0.step.rawValue, tier: $0.tier, reason: $0.reason.rawValue,
                               pool: $0.line?.pool.rawValue, lineIndex: $0.line?.index, line: $0.line?.text, at: at, item: $0.item)
            },
            recalled: outcome.recalled.flatMap(StoredJSON.text))
    }

    public func answered(_ answer: RecordedAnswer, position: Int, prompt: Prompt, safety: SafetyCategory?) throws {
        try answered(answer, position: position, prompt: prompt, outcome: AnswerOutcome(safety: safety))
    }

    public func flaggedAtPause(_ category: SafetyCategory, step: StepID) throws {
        try store.recordEvent(SessionEventRecord(sessionID: sessionID, kind: .safety, step: step, category: category, at: timestamp()))
    }

    public func wentBack(from step: StepID) throws {
        try store.markDraft(session: sessionID, step: step)
    }

    public func detected(_ type: DistortionType, step: StepID) throws {
        try store.recordDistortion(DistortionRecord(sessionID: sessionID, step: step, type: type, detectedAt: timestamp()))
    }

    public func probed(step: StepID) throws {
        try store.recordEvent(SessionEventRecord(sessionID: sessionID, kind: .probe, step: step, at: timestamp()))
    }

    public func exposed(_ exposures: [VariantAssignment]) throws {
        try store.recordExposures(exposures, session: sessionID, at: timestamp())
    }

    /// A session resumed at its end (every step answered, its end not
    /// recorded): completed as its last answer would have completed it
    /// (``Store/completeAtLastAnswer(_:pre:post:now:moodDay:activityDay:)``).
    /// Every other finish is recorded with its last answer, in that
    /// answer's transaction.
    public func finished(_ summary: DoneSummary) throws {
        try store.completeAtLastAnswer(sessionID, pre: summary.pre, post: summary.post, now: timestamp(), moodDay: day,
                                       activityDay: activityDay)
    }
}

extension SessionSave {
    /// The save a stored session resumes from: its answers in log order and
    /// its drafts. The records are typed: a row that does not decode was
    /// already refused by the store (``StoreError``), never guessed at.
    public init(_ detail: SessionDetail) throws(EngineError) {
        let s = detail.session
        var answers: [RecordedAnswer] = [], drafts: [RecordedAnswer] = []
        for row in detail.answers {
            let entry = RecordedAnswer(step: row.step, value: row.value)
            if row.state == .answer { answers.append(entry) } else { drafts.append(entry) }
        }
        var facts: UserFacts?
        if let json = s.facts {
            guard let decoded = try? JSONDecoder().decode(UserFacts.self, from: Data(json.utf8)) else {
                throw .invalidSave(SaveValidationError(field: "facts", reason: "stored facts cannot be read"))
            }
            facts = decoded
        }
        let generated = detail.generated.map { GeneratedText(id: $0.request, text: $0.text, generated: $0.generated, basis: $0.basis) }
        var variants: [VariantAssignment] = []
        if let json = s.variants {
            guard let decoded = try? JSONDecoder().decode([VariantAssignment].self, from: Data(json.utf8)) else {
                throw .invalidSave(SaveValidationError(field: "variants", reason: "stored experiment arms cannot be read"))
            }
            variants = decoded
        }
        var celebrations: [FiredCelebration] = []
        for row in detail.celebrations {
            guard let step = row.step.flatMap(StepID.init), let reason = CelebrationReason(rawValue: row.reason) else {
                throw .invalidSave(SaveValidationError(field: "celebrations", reason: "stored celebration '\(row.reason)' cannot be read"))
            }
            var line: PoolLine?
            if let pool = row.pool.flatMap(LinePool.init(rawValue:)), let index = row.lineIndex, let text = row.line {
                line = PoolLine(pool: pool, index: index, text: text)
            }
            celebrations.append(FiredCelebration(step: step, tier: row.tier, reason: reason, line: line, item: row.item))
        }
        var recalled: [RecalledEntries] = []
        if let json = s.recalled {
            guard let decoded = try? JSONDecoder().decode([RecalledEntries].self, from: Data(json.utf8)) else {
                throw .invalidSave(SaveValidationError(field: "recalled", reason: "stored related entries cannot be read"))
            }
            recalled = decoded
        }
        self.init(flow: s.flowID, flowVersion: s.flowVersion, seed: s.seedValue, now: s.clock, locale: s.locale,
                  mood: s.mood, answers: answers, drafts: drafts, facts: facts, generated: generated, variants: variants,
                  exposed: detail.exposed, celebrations: celebrations, recalled: recalled)
    }
}

extension SessionRecord {
    /// The row for a session about to start. Its facts and experiment arms
    /// are stored as JSON with sorted keys (``StoredJSON``, as every stored
    /// JSON column): the same facts are always the same text, whatever
    /// order an encoder would have written their keys in.
    public init(starting session: FlowSession, user: String, personality: String?, startedAt: String) {
        self.init(id: session.sessionID, flowID: session.definition.id, flowVersion: session.definition.version,
                  locale: session.save.locale, personality: personality, user: user, mood: session.save.mood,
                  seed: session.save.seed, clock: session.save.now, startedAt: startedAt,
                  facts: session.save.facts.flatMap(StoredJSON.text),
                  variants: session.save.variants.isEmpty ? nil : StoredJSON.text(session.save.variants))
    }
}

/// `s:related` fulfilled from the store: `user`'s related past entries
/// (``Store/relatedEntries(user:to:now:excluding:limit:)``), read-only.
/// Entries about the person's topics to avoid (`avoiding`, their
/// personalization profile's) are never found.
public struct StoreRelatedEntries: RelatedEntrySource {
    public let store: Store
    public let user: String
    public let avoiding: [Theme]

    public init(store: Store, user: String, avoiding: [Theme] = []) {
        self.store = store
        self.user = user
        self.avoiding = avoiding
    }

    public func relatedEntries(to text: String, now: String, excluding: String, limit: Int) throws -> [RelatedEntry] {
        try store.relatedEntries(user: user, to: text, now: now, excluding: excluding, limit: limit, avoiding: avoiding)
    }
}
