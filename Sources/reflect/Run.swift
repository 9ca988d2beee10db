import ArgumentParser
import Foundation
import LuaHost
import ReflectCore
import ReflectEngine
import ReflectStoreJournal
import ReflectStore

/// Output and input options shared by `run` and `resume`.
struct DriveOptions: ParsableArguments {
    @Option(help: "Read answers from FILE (one JSON value per line; '-' for stdin) instead of asking.")
    var answers: String?

    @Option(help: "Output format: text (for people) or jsonl (one event per line).")
    var format: Run.OutputFormat = .text

    @Option(help: "Injected clock, ISO-8601 with offset (default: now).")
    var now: String?
}

struct Run: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run a flow interactively, or drive it with answers (machine interface).",
        discussion: """
            FLOW is a flow id (reflection.negative), a family with --mood (reflection --mood bad), \
            or a path to a .lua file. At a prompt, type :back, :skip, :keep or :quit (exactly; "::" \
            starts an answer with a colon). Every answer is saved before the next question; an \
            unfinished session can be resumed.
            """)

    @Argument(help: "A flow id, a family such as 'reflection' (with --mood), or a path to a .lua file.")
    var flow: String

    @OptionGroup var contentOptions: ContentOptions
    @OptionGroup var storeOptions: StoreOptions
    @OptionGroup var drive: DriveOptions
    @OptionGroup var generation: GeneratorOptions

    @Option(help: "The mood before the flow: horrible, bad, average, good or great.")
    var mood: Mood?

    @Option(help: "Locale tag (en, de, es, fr, ja, ko, pt-BR); falls back along tag → language → en.")
    var locale: String = "en"

    @Option(help: "Seed for the flow's random draws (default: derived from the person, the flow and the start instant, so each session draws its own; stored with the session).")
    var seed: UInt64?

    @Option(help: "Personality pack (personalities/<id>.yaml): its tone overrides the locale's strings.")
    var personality: String?

    @Option(help: "Region for crisis resources (US, UK, DE, FR, ES, MX, JP, KR, BR, …; default: the locale's).")
    var region: String?

    @Flag(help: "Resume the latest unfinished session of this flow instead of starting a new one.")
    var resume = false

    @Flag(name: .customLong("new"), help: "Start a new session even if an unfinished one exists.")
    var startNew = false

    @Flag(name: .customLong("no-celebrations"), help: "No celebration events (the \"Show celebrations\" setting off); achievements are still recorded.")
    var noCelebrations = false

    enum OutputFormat: String, ExpressibleByArgument { case text, jsonl }

    func run() throws {
        let library = try contentOptions.open()
        let stamps = try Timestamps(now: drive.now)
        let store = try storeOptions.open(reading: .serialized)
        let printer = EventPrinter(format: drive.format, interactive: drive.answers == nil)
        let input = try AnswerSource(path: drive.answers)
        do {
            let source = try library.catalog.source(for: flow, mood: mood)
            // The person's experiment arms: the stored (sticky) one first, else GrowthBook's hashing.
            let user = storeOptions.user
            let context = ExperimentContext(user: user, flow: try FlowCatalog.declaredID(of: source), locale: locale, mood: mood,
                                            day: stamps.current.day)
            let variants = library.assignments(for: context) { experiment, bucket, seed in
                (try? store.stickyVariation(user: user, experiment: experiment, bucketVersion: bucket, seed: seed)) ?? nil
            }
            let language = try library.language(for: locale, personality: personality, variants: variants)
            KeptUntilExit.keep(language)
            let flowSeed = seed ?? SessionSeed.derived(user: user, flow: FlowSourceScanner(source.text).header.id ?? flow, clock: stamps.current)
            var options = SessionOptions(mood: mood, clock: stamps.current, seed: flowSeed, region: region, log: flowLog)
            // The person's facts when the session starts (snapshotted into the
            // save), with their streaks and the history celebration rules
            // read, for the same logical day.
            let settings = try store.settings(user: storeOptions.user)
            let flowID = FlowSourceScanner(source.text).header.id ?? flow
            var facts = try store.userFacts(user: storeOptions.user, flowID: flowID, clock: stamps.current, rules: settings.dayRules)
            if let today = facts.day.flatMap(CalendarDay.init) {
                (facts.streak, facts.progress) = try store.progressFacts(user: storeOptions.user, flow: flowID, today: today)
            }
            facts.profile = try store.personalizationProfile(user: storeOptions.user)
            options.facts = facts
            options.relatedEntries = StoreRelatedEntries(store: store, user: storeOptions.user, avoiding: facts.profile?.avoidTopics ?? [])
            options.celebrations = settings.celebrations && !noCelebrations
            try generation.apply(to: &options, language: language, library: library, settings: settings)
            var session = try FlowSession.open(source, language: language, options: options)

            // `--new` leaves an unfinished session as it is: it is not even looked up.
            let unfinished = startNew ? [] : try store.unfinishedSessions(user: storeOptions.user, flowID: session.definition.id)
            if let latest = unfinished.first {
                let answered = try store.answerCount(latest.id)
                // A session whose flow changed under it cannot resume: offer to
                // start anew, setting it aside (its answers kept), instead of
                // failing with "flow changed" on every run.
                // One replay: it says whether the session can resume, and is the
                // session resumed when nothing changed before the lease.
                let resumer = SessionResumer(store: store, library: library, generation: generation)
                let attempt = resumer.attempt(latest.id)
                if case .flowChanged(let step, let why)? = attempt.whyNot {
                    let show = SessionLoop.showHint(session: latest.id, store: storeOptions)
                    if drive.format == .jsonl || drive.answers != nil {
                        guard !resume else {
                            printer.fail(.flowChanged(step: step, message: why + "; run without --resume to set it aside (its answers are kept) and start anew"))
                            throw ExitCode(1)
                        }
                        try store.setAside(latest.id, at: stamps.stamp())
                        printer.printJSON(FlowChangedEvent(session: latest.id, flow: latest.flowID, startedAt: latest.startedAt,
                                                           answered: answered, message: why))
                        printer.use(language)
                        printer.note(printer.text(.terminalFlowChanged, latest.startedAt, "\(answered)", show))
                    } else {
                        printer.use(language)
                        printer.note(printer.text(.terminalFlowChanged, latest.startedAt, "\(answered)", show))
                        guard printer.confirm(printer.text(.terminalStartAnew), input: input) else {
                            printer.note(printer.text(.terminalKeptAsIs, show))
                            return
                        }
                        try store.setAside(latest.id, at: stamps.stamp())
                    }
                    return try startNewSession(session, library: library, store: store, stamps: stamps, printer: printer, input: input)
                }
                var resumeIt = resume
                if !resume {
                    if drive.format == .jsonl || drive.answers != nil {
                        printer.use(language)  // the text line is in the session's language, not its key
                        printer.print([.resumable(session: latest.id, flow: latest.flowID, startedAt: latest.startedAt, answered: answered)])
                    } else {
                        printer.use(language)
                        resumeIt = printer.confirm(printer.text(.terminalResumeQuestion, latest.startedAt, "\(answered)"), input: input)
                    }
                }
                if resumeIt {
                    let lease = try store.lease(session: latest.id)
                    session = try resumer.resume(attempt)
                    return try SessionLoop(session: session, store: store, lease: lease, stamps: stamps, printer: printer, input: input,
                                           answersPath: drive.answers,
                                           resumeHint: SessionLoop.resumeHint(session: latest.id, content: contentOptions, store: storeOptions),
                                           showHint: SessionLoop.showHint(session: latest.id, store: storeOptions),
                                           reopens: { (try? resumer.open(latest.id)) != nil })
                        .run(resumed: true)
                }
            }
            try startNewSession(session, library: library, store: store, stamps: stamps, printer: printer, input: input)
        } catch let e as EngineError {
            printer.fail(e)
            throw ExitCode(1)
        } catch let e as StoreError {
            throw failStore(e)
        }
    }
}

extension Run {
    /// Stores `session` as begun and runs it.
    func startNewSession(_ session: FlowSession, library: ContentLibrary, store: Store, stamps: Timestamps, printer: EventPrinter,
                         input: AnswerSource) throws {
        let lease = try store.lease(session: session.sessionID)
        try store.beginSession(SessionRecord(starting: session, user: storeOptions.user, personality: personality,
                                             startedAt: stamps.stamp()))
        let resumer = SessionResumer(store: store, library: library, generation: generation)
        try SessionLoop(session: session, store: store, lease: lease, stamps: stamps, printer: printer, input: input,
                        answersPath: drive.answers,
                        resumeHint: SessionLoop.resumeHint(session: session.sessionID, content: contentOptions, store: storeOptions),
                        showHint: SessionLoop.showHint(session: session.sessionID, store: storeOptions),
                        reopens: { (try? resumer.open(session.sessionID)) != nil })
            .run(resumed: false)
    }
}

/// `flow_changed` (JSONL): the unfinished session of this flow cannot
/// resume, its flow having changed; it was set aside (its answers kept,
/// readable with `reflect show` and in the export) and a new session
/// starts. `--resume` refuses instead (`flow.changed`), and `--new` leaves
/// it as it is (docs/events.md).
struct FlowChangedEvent: Encodable {
    let event = "flow_changed"
    let session: String
    let flow: String
    let startedAt: String
    let answered: Int
    let message: String
    let setAside = true

    enum CodingKeys: String, CodingKey {
        case event, session, flow, answered, message
        case startedAt = "started_at", setAside = "set_aside"
    }
}

struct Resume: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Continue an unfinished session (the latest one, or SESSION) where it stopped.")

    @Argument(help: "A session id or the start of one (default: the latest unfinished session).")
    var session: String?

    @OptionGroup var contentOptions: ContentOptions
    @OptionGroup var storeOptions: StoreOptions
    @OptionGroup var drive: DriveOptions
    @OptionGroup var generation: GeneratorOptions

    @Option(help: "Language of the line saying there is nothing to resume (default: your latest session's; a resumed session speaks its own).")
    var locale: String?

    func run() throws {
        let stamps = try Timestamps(now: drive.now)
        let store = try storeOptions.open(reading: .serialized)
        let printer = EventPrinter(format: drive.format, interactive: drive.answers == nil)
        let input = try AnswerSource(path: drive.answers)
        do {
            let id: String
            if let session {
                id = try store.resolveSession(session)
            } else if let latest = try store.unfinishedSessions(user: storeOptions.user).first {
                id = latest.id
            } else {
                let tag = try locale ?? store.recentSessions(user: storeOptions.user, limit: 1).first?.locale ?? "en"
                Terminal.write(try contentOptions.language(tag).string(.terminalNothingToResume) + "\n", to: .err)
                throw ExitCode(1)
            }
            // One writer per session: the lease first, then the answers are read.
            let lease = try store.lease(session: id)
            let opened: FlowSession
            let resumer = SessionResumer(store: store, library: try contentOptions.open(), generation: generation)
            do {
                opened = try resumer.open(id)
            } catch EngineError.flowChanged(let step, let why) {
                let flow = try store.detail(id).session.flowID
                throw EngineError.flowChanged(step: step, message: why + "; `reflect run \(flow)` offers to start anew, "
                                              + "keeping these answers (reflect show \(id.prefix(8)))")
            }
            try SessionLoop(session: opened, store: store, lease: lease, stamps: stamps, printer: printer, input: input,
                            answersPath: drive.answers,
                            resumeHint: SessionLoop.resumeHint(session: id, content: contentOptions, store: storeOptions),
                            showHint: SessionLoop.showHint(session: id, store: storeOptions),
                            reopens: { (try? resumer.open(id)) != nil })
                .run(resumed: true)
        } catch let e as EngineError {
            printer.fail(e)
            throw ExitCode(1)
        } catch let e as StoreError {
            throw failStore(e)
        }
    }
}

let flowLog: @Sendable (String) -> Void = { line in
    Terminal.write("[flow] \(line)\n", to: .err)
}

extension Mood: ExpressibleByArgument {}

/// A value a command holds until the process exits, never freed: freeing a
/// language (thousands of strings and word lists) when `reflect run`
/// returns costs as much as reading it, and the process exits right after
/// (the operating system takes the memory back). Only memory is kept:
/// files and the database are closed as before.
final class KeptUntilExit: Sendable {
    let value: any Sendable

    private init(_ value: any Sendable) { self.value = value }

    static func keep(_ value: any Sendable) {
        _ = Unmanaged.passRetained(KeptUntilExit(value))
    }
}
