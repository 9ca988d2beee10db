import ReflectCore

/// Every string the engine and the `reflect` command show on their own (not
/// a flow's text), by its key in the locale files.
///
/// `locales/en.yaml` is the only place their English is written: there is no
/// English copy in code. ``ContentLibrary/language(for:personality:)``
/// refuses a locale chain that lacks one of these keys, naming the key and
/// the file to add it to, so a loaded ``Language`` always has every one.
/// Adding a case means adding its key to `locales/en.yaml` in the same
/// change (a test checks both ways: `EngineStringTests`).
public enum EngineString: String, CaseIterable, Sendable {
    // Validation messages: `invalid.<code>` of ``InvalidAnswer/code``.
    case invalidIntensityRange = "invalid.intensity_range"
    case invalidNumberRange = "invalid.number_range"
    case invalidTextExpected = "invalid.text_expected"
    case invalidTooLong = "invalid.too_long"
    case invalidTooManyCharacters = "invalid.too_many_characters"
    case invalidYesNo = "invalid.yes_no"
    case invalidChoiceUnknown = "invalid.choice_unknown"
    case invalidRequired = "invalid.required"
    case invalidChecklistItem = "invalid.checklist_item"
    case invalidChecklistMark = "invalid.checklist_mark"
    case invalidChecklistIncomplete = "invalid.checklist_incomplete"
    case invalidAckExpected = "invalid.ack_expected"
    case invalidCommand = "invalid.command"
    case invalidNoDraft = "invalid.no_draft"
    case invalidBackStart = "invalid.back_start"

    // The session's own lines.
    case probeSpecificity = "probe.specificity"
    case intensityHint = "intensity.hint"
    case safetyMessage = "safety.message"
    case safetyPause = "safety.pause"
    case safetyFallback = "safety.fallback"
    case safetyMedical = "safety.medical"

    // The coach chat (`reflect chat`, docs/generation.md).
    case chatTitle = "chat.title"
    case chatModePrompt = "chat.mode.prompt"
    case chatModeJustTalk = "chat.mode.just_talk"
    case chatModeAskCoach = "chat.mode.ask_coach"
    case chatDisclaimer = "chat.disclaimer"
    case chatFallback = "chat.fallback"
    case chatHint = "chat.hint"
    case chatHistoryDeleted = "chat.history.deleted"

    // The terminal's hints (`reflect run` in text mode).
    case hintYesNo = "hint.yes_no"
    case hintMultiChoice = "hint.multi_choice"
    case hintChecklist = "hint.checklist"
    case hintAck = "hint.ack"
    case hintNumberStep = "hint.number_step"
    case hintDraft = "hint.draft"
    case hintCommands = "hint.commands"
    case hintOptional = "hint.optional"
    case doneThanks = "done.thanks"
    case doneIntensity = "done.intensity"

    // The terminal's own lines (`reflect run` / `resume` in text mode).
    case terminalCommands = "terminal.commands"
    case terminalResuming = "terminal.resuming"
    case terminalStopped = "terminal.stopped"
    case terminalPaused = "terminal.paused"
    case terminalResumeQuestion = "terminal.resume_question"
    case terminalYesDefault = "terminal.yes_default"
    case terminalNoDefault = "terminal.no_default"
    case terminalResumable = "terminal.resumable"
    case terminalRetype = "terminal.retype"
    case terminalFlowChanged = "terminal.flow_changed"
    case terminalStartAnew = "terminal.start_anew"
    case terminalKeptAsIs = "terminal.kept_as_is"
    case terminalFailedSaved = "terminal.failed_saved"
    case terminalRetrySave = "terminal.retry_save"
    case terminalNotSaved = "terminal.not_saved"
    case terminalNothingToResume = "terminal.nothing_to_resume"

    // `reflect dev`'s own lines (the flow author's terminal).
    case devReloaded = "dev.reloaded"
    case devNotLoaded = "dev.not_loaded"
    case devFinished = "dev.finished"
    case devStopped = "dev.stopped"

    // `reflect log` and `reflect history` (moods are shown by their
    // `mood.<id>` label).
    case logUpdated = "log.updated"
    case historySessions = "history.sessions"
    case historyMoods = "history.moods"
    case historyNone = "history.none"
    case historyCompleted = "history.completed"
    case historyUnfinished = "history.unfinished"
    case historySetAside = "history.set_aside"

    // `reflect show` (a session, in its own language).
    case showHeader = "show.header"
    case showFinishedAt = "show.finished_at"
    case showComplete = "show.complete"
    case showUnfinished = "show.unfinished"
    case showSetAsideState = "show.set_aside_state"
    case showSession = "show.session"
    case showMood = "show.mood"
    case showSetAside = "show.set_aside"
    case showIntensity = "show.intensity"
    case showRecovered = "show.recovered"
    case showDraft = "show.draft"
    case showDistortion = "show.distortion"
    case showProbed = "show.probed"
    case showSafety = "show.safety"

    // `reflect progress` and `reflect coach context` in text form. Counts are
    // written as a label and a value ("Days in a row: 1"): the locale files
    // have no plural forms (docs/localization.md, "Counts").
    case progressStreak = "progress.streak"
    case progressWeek = "progress.week"
    case progressAchievements = "progress.achievements"
    case progressAchievementsNone = "progress.achievements.none"
    case progressResetQuestion = "progress.reset.question"
    case progressResetUnchanged = "progress.reset.unchanged"
    case progressResetDone = "progress.reset.done"
    case achievementStreak = "achievement.streak"
    case achievementFirstWeekMorning = "achievement.first_week_morning"
    case achievementWeeklyConsistency = "achievement.weekly_consistency"
    case achievementFirstStressResponse = "achievement.first_stress_response"
    case coachContextWhy = "coach.context.why"
    case coachContextSwap = "coach.context.swap"
    case coachContextStreak = "coach.context.streak"
    case weekdayShort1 = "weekday.1.short"
    case weekdayShort2 = "weekday.2.short"
    case weekdayShort3 = "weekday.3.short"
    case weekdayShort4 = "weekday.4.short"
    case weekdayShort5 = "weekday.5.short"
    case weekdayShort6 = "weekday.6.short"
    case weekdayShort7 = "weekday.7.short"

    /// The key in the locale files.
    public var key: String { rawValue }

    /// The short name of weekday `n` (1 = Sunday … 7 = Saturday, as
    /// `Calendar` numbers them), for calendar headers.
    public static func weekdayShort(_ n: Int) -> EngineString {
        [.weekdayShort1, .weekdayShort2, .weekdayShort3, .weekdayShort4, .weekdayShort5, .weekdayShort6, .weekdayShort7][(n - 1 + 7) % 7]
    }

    /// The message key of a validation code (`invalid.<code>`), nil for a
    /// code that has no translated message (its ``InvalidAnswer/message``
    /// is shown as it is).
    public init?(invalid code: String) {
        self.init(rawValue: "invalid.\(code)")
    }

    /// The engine strings no locale of `chain` has, in declaration order.
    public static func missing(in chain: [LocaleData]) -> [EngineString] {
        allCases.filter { wanted in !chain.contains { $0.strings[wanted.key] != nil } }
    }
}
