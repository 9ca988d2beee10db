import ArgumentParser
import Foundation
import ReflectCore
import ReflectEngine
import ReflectStore

struct Show: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "One session: each question as it was shown, each answer, the distortion, the intensity shift.")

    @Argument(help: "A session id or the start of one.")
    var session: String

    @Option(help: "Language of the page's own words (default: the session's own language).")
    var locale: String?

    @OptionGroup var storeOptions: StoreOptions
    @OptionGroup var content: ContentOptions

    func run() throws {
        let store = try storeOptions.open(.readOnly)
        let found = Result { () throws(StoreError) in try store.detail(try store.resolveSession(session)) }
        guard case .success(let d) = found else {
            if case .failure(let error) = found { throw failStore(error) }
            return
        }
        // The session's language, as its questions were shown; a locale no
        // longer in the content falls back to English.
        let language = try locale.map { try content.language($0) } ?? ((try? content.library.language(for: d.session.locale)) ?? content.language("en"))
        let s = d.session
        func word(_ key: EngineString, _ args: String...) -> String { Template(language.string(key)).render(args) }
        // Times on the person's clock (their time zone), as reflect history shows them.
        let time = PersonTime(settings: (try? store.settings(user: s.user)) ?? Settings())
        let state = s.status == .completed ? word(.showComplete) : s.setAsideAt != nil ? word(.showSetAsideState) : word(.showUnfinished)
        print(word(.showHeader, s.flowID, "\(s.flowVersion)", state, time.minute(s.startedAt))
              + (s.completedAt.map { " · " + word(.showFinishedAt, time.minute($0)) } ?? ""))
        print(word(.showSession, s.id, s.locale) + (s.mood.map { " · " + word(.showMood, language.moodName($0)) } ?? ""))
        if let aside = s.setAsideAt {
            print(word(.showSetAside, time.minute(aside)))
        }
        if let pre = s.pre, let post = s.post {
            print(word(.showIntensity, "\(pre)", "\(post)", "\(post - pre > 0 ? "+" : "")\(post - pre)"))
        }
        // Answers stored before schema v12 kept their option ids only:
        // labels from the flow as it is now, said so.
        let recovered = OptionLabelRecovery.labels(for: d, library: { try content.library })
        if recovered != nil {
            print(word(.showRecovered))
        }
        let distortions = Dictionary(d.distortions.map { ($0.step, $0.type) }, uniquingKeysWith: { a, _ in a })
        let probed = Set(d.events.filter { $0.kind == .probe }.map(\.step))
        print("")
        for (i, a) in d.answers.enumerated() {
            let draft = a.state == .draft ? " " + word(.showDraft) : ""
            print("\(i + 1). \(a.question)\(draft)")
            // An answer of several lines (a pasted paragraph) stays under its arrow.
            let answer = ExportDocument.readable(a.value, options: a.options, step: a.step, recovered: recovered,
                                                 numbers: language.localizer.numbers, words: language.readableWords)
            print("   → " + answer.split(separator: "\n", omittingEmptySubsequences: false).joined(separator: "\n     "))
            if let type = distortions[a.step] {
                print("   " + word(.showDistortion, language.localizer.string("feedback.distortion." + type.rawValue) ?? type.rawValue))
            }
            if probed.contains(a.step) { print("   " + word(.showProbed)) }
        }
        let safety = d.events.filter { $0.kind == .safety }
        for e in safety {
            print(word(.showSafety, e.category.map { language.string(.safetyCategory($0)) } ?? "?", time.minute(e.at)))
        }
    }
}
