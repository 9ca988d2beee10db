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

    // Answers as `reflect show` reads them back (the CSV export keeps its
    // machine words), and checklist marks (`show`, `prep mark`).
    case answerYes = "answer.yes"
    case answerNo = "answer.no"
    case answerAcknowledged = "answer.acknowledged"
    case answerSkipped = "answer.skipped"
    case answerNone = "answer.none"
    case markDone = "mark.done"
    case markPartly = "mark.partly"
    case markSkip = "mark.skip"

    // A safety category by its name (`reflect show`), never its id.
    case safetyCategorySuicide = "safety.category.suicide"
    case safetyCategorySelfHarm = "safety.category.self_harm"
    case safetyCategoryCrisis = "safety.category.crisis"
    case safetyCategoryAbuse = "safety.category.abuse"
    case safetyCategorySubstanceAbuse = "safety.category.substance_abuse"

    // `reflect delete`, `delete-all` and `import`.
    case deleteDone = "delete.done"
    case deleteAllWarning = "delete_all.warning"
    case deleteAllContents = "delete_all.contents"
    case deleteAllKeepCopy = "delete_all.keep_copy"
    case deleteAllConfirm = "delete_all.confirm"
    case deleteAllDone = "delete_all.done"
    case importAdded = "import.added"
    case importPresent = "import.present"
    case importChat = "import.chat"

    // `reflect prep` (the list's notes) and `reflect flows` (its columns).
    case prepCore = "prep.core"
    case prepArchived = "prep.archived"
    case prepHiddenToday = "prep.hidden_today"
    case flowsID = "flows.id"
    case flowsTitle = "flows.title"
    case flowsQuestions = "flows.questions"
    case flowsMoods = "flows.moods"
    case flowsFile = "flows.file"
    case flowsBroken = "flows.broken"

    // `reflect profile` and `reflect rate`.
    case profileTone = "profile.tone"
    case profileLength = "profile.length"
    case profileActions = "profile.actions"
    case profileAvoid = "profile.avoid"
    case profileNone = "profile.none"
    case toneWarm = "profile.tone.warm"
    case toneDirect = "profile.tone.direct"
    case toneCheerful = "profile.tone.cheerful"
    case toneNeutral = "profile.tone.neutral"
    case lengthShort = "profile.length.short"
    case lengthMedium = "profile.length.medium"
    case lengthLong = "profile.length.long"
    case rateUp = "rate.up"
    case rateDown = "rate.down"

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

    /// The name of a checklist mark ("partly"), as `reflect show` and
    /// `reflect prep mark` write it.
    public static func mark(_ mark: ChecklistMark) -> EngineString {
        switch mark {
        case .done: .markDone
        case .partly: .markPartly
        case .skip: .markSkip
        }
    }

    /// The name of a safety category (`safety.category.self_harm`), never its id.
    public static func safetyCategory(_ category: SafetyCategory) -> EngineString {
        switch category {
        case .suicide: .safetyCategorySuicide
        case .selfHarm: .safetyCategorySelfHarm
        case .crisis: .safetyCategoryCrisis
        case .abuse: .safetyCategoryAbuse
        case .substanceAbuse: .safetyCategorySubstanceAbuse
        }
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
