import ReflectCore
import ReflectEngine

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
    /// A mood as the person calls it (`mood.<id>`: "schlecht"), never its id
    /// when the language has the label.
    func moodName(_ mood: Mood) -> String {
        localizer.string("mood." + mood.rawValue) ?? mood.rawValue
    }
}
