import ArgumentParser
import Foundation
import ReflectCore
import ReflectStore

struct Show: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "One session: each question as it was shown, each answer, the distortion, the intensity shift.")

    @Argument(help: "A session id or the start of one.")
    var session: String

    @OptionGroup var storeOptions: StoreOptions
    @OptionGroup var content: ContentOptions

    func run() throws {
        let store = try storeOptions.open(.readOnly)
        do {
            let d = try store.detail(try store.resolveSession(session))
            let s = d.session
            let state = s.status == .completed ? "complete" : s.setAsideAt != nil ? "unfinished, set aside" : "unfinished"
            print("\(s.flowID) (version \(s.flowVersion)) · \(state) · "
                  + "started \(s.startedAt)\(s.completedAt.map { " · finished \($0)" } ?? "")")
            print("session \(s.id) · locale \(s.locale)\(s.mood.map { " · mood \($0.rawValue)" } ?? "")")
            if let aside = s.setAsideAt {
                print("set aside \(aside): the flow changed, and a new session was started; these answers are kept as they were")
            }
            if let pre = s.pre, let post = s.post {
                print("intensity \(pre) → \(post) (\(post - pre > 0 ? "+" : "")\(post - pre))")
            }
            // Answers stored before schema v12 kept their option ids only:
            // labels from the flow as it is now, said so.
            let recovered = OptionLabelRecovery.labels(for: d, library: { try content.library })
            if recovered != nil {
                print("some answers were saved before their options' labels were kept: their labels are read from the flow as it is now")
            }
            let distortions = Dictionary(d.distortions.map { ($0.step, $0.type) }, uniquingKeysWith: { a, _ in a })
            let probed = Set(d.events.filter { $0.kind == .probe }.map(\.step))
            print("")
            for (i, a) in d.answers.enumerated() {
                let draft = a.state == .draft ? " (draft)" : ""
                print("\(i + 1). \(a.question)\(draft)")
                // An answer of several lines (a pasted paragraph) stays under its arrow.
                let answer = ExportDocument.readable(a.value, options: a.options, step: a.step, recovered: recovered)
                print("   → " + answer.split(separator: "\n", omittingEmptySubsequences: false).joined(separator: "\n     "))
                if let type = distortions[a.step] { print("   distortion: \(type.rawValue)") }
                if probed.contains(a.step) { print("   (a hint to be more specific was shown)") }
            }
            let safety = d.events.filter { $0.kind == .safety }
            for e in safety { print("safety: \(e.category?.rawValue ?? "?") at \(e.at)") }
        } catch {
            throw failStore(error)
        }
    }
}
