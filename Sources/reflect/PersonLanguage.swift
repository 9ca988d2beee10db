import ReflectCore
import ReflectEngine
import ReflectStore

/// The language of a store command's own lines (`reflect log`, `history`,
/// `resume`): these commands work on the store alone, so their words are
/// read from the content's locales when there are any.
extension ContentOptions {
    /// `--locale`, English by default, read before anything is written:
    /// an unknown tag, a broken locale file or no content directory is
    /// refused (the error printed, exit 1) with nothing stored, as in every
    /// command that speaks (the English, too, lives only in `locales/en.yaml`).
    func personLanguage(_ locale: String?) throws -> Language {
        try language(locale ?? "en")
    }
}

extension Language {
    /// The words an answer is read back with in this language ("ja",
    /// "teilweise", "(übersprungen)"): `reflect show`.
    var readableWords: ReadableWords {
        ReadableWords(yes: string(.answerYes), no: string(.answerNo), acknowledged: string(.answerAcknowledged),
                      skipped: string(.answerSkipped), none: string(.answerNone),
                      marks: Dictionary(uniqueKeysWithValues: ChecklistMark.allCases.map { ($0, string(.mark($0))) }))
    }

    /// A flow's title (its `title`) in this language: its key's text, or the title as the
    /// flow writes it when that is text; nil without a title, and for a key
    /// no locale has (`reflect check` reports it, R005): a raw key is never
    /// shown.
    func flowTitle(_ title: String?) -> String? {
        title.flatMap { localizer.string($0) ?? (FlowAPI.looksLikeKey($0) ? nil : $0) }
    }

    /// A theme as the person calls it (`theme.<id>`: "Arbeit").
    func themeName(_ theme: Theme) -> String {
        localizer.string("theme." + theme.rawValue) ?? theme.rawValue
    }

    /// A mood as the person calls it (`mood.<id>`: "schlecht"), never its id
    /// when the language has the label.
    func moodName(_ mood: Mood) -> String {
        localizer.string("mood." + mood.rawValue) ?? mood.rawValue
    }
}
