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
            or a path to a .lua file. At a prompt, type :back, :skip, :keep or :quit. Every answer is \
            saved before the next question; an unfinished session can be resumed.
            """)

    @Argument(help: "A flow id, a family such as 'reflection' (with --mood), or a path to a .lua file.")
    var flow: String

    @OptionGroup var contentOptions: ContentOptions
    @OptionGroup var storeOptions: StoreOptions
    @OptionGroup var drive: DriveOptions

    @Option(help: "The mood before the flow: horrible, bad, average, good or great.")
    var mood: Mood?

    @Option(help: "Locale tag (en, de, es, fr, ja, ko, pt-BR); falls back along tag → language → en.")
    var locale: String = "en"

    @Option(help: "Seed for the flow's random draws.")
    var seed: UInt64 = 0

    @Option(help: "Personality pack (personalities/<id>.yaml): its tone overrides the locale's strings.")
    var personality: String?

    @Option(help: "Region for crisis resources (US, UK, DE, FR, ES, MX, JP, KR, BR, …; default: the locale's).")
    var region: String?

    @Flag(help: "Resume the latest unfinished session of this flow instead of starting a new one.")
    var resume = false

    @Flag(name: .customLong("new"), help: "Start a new session even if an unfinished one exists.")
    var startNew = false

    enum OutputFormat: String, ExpressibleByArgument { case text, jsonl }

    func run() throws {
        let library = contentOptions.library
        let stamps = try Timestamps(now: drive.now)
        let store = try storeOptions.open()
        let printer = EventPrinter(format: drive.format, interactive: drive.answers == nil)
        let input = try AnswerSource(path: drive.answers)
        do {
            let language = try library.language(for: locale, personality: personality)
            let source = try library.catalog.source(for: flow, mood: mood)
            let options = SessionOptions(mood: mood, clock: stamps.current, seed: seed, region: region, log: flowLog)
            var session = try FlowSession.open(source, language: language, options: options)

            let unfinished = try store.unfinishedSessions(user: storeOptions.user, flowID: session.definition.id)
            if let latest = unfinished.first, !startNew {
                let answered = try store.answerCount(latest.id)
                var resumeIt = resume
                if !resume {
                    if drive.format == .jsonl || drive.answers != nil {
                        printer.print([.resumable(session: latest.id, flow: latest.flowID, startedAt: latest.startedAt, answered: answered)])
                    } else {
                        resumeIt = printer.confirm("You have an unfinished session of this flow from \(latest.startedAt) "
                                                   + "(\(answered) answered). Resume it? [Y/n] ", input: input)
                    }
                }
                if resumeIt {
                    let lease = try store.lease(session: latest.id)
                    session = try SessionResumer(store: store, library: library).open(latest.id)
                    return try SessionLoop(session: session, store: store, lease: lease, stamps: stamps, printer: printer, input: input,
                                           answersPath: drive.answers).run(resumed: true)
                }
            }
            let lease = try store.lease(session: session.sessionID)
            try store.beginSession(SessionRecord(starting: session, user: storeOptions.user, personality: personality,
                                                 startedAt: stamps.stamp()))
            try SessionLoop(session: session, store: store, lease: lease, stamps: stamps, printer: printer, input: input,
                            answersPath: drive.answers).run(resumed: false)
        } catch let e as EngineError {
            printer.fail(e)
            throw ExitCode(1)
        } catch let e as StoreError {
            throw failStore(e)
        }
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

    func run() throws {
        let stamps = try Timestamps(now: drive.now)
        let store = try storeOptions.open()
        let printer = EventPrinter(format: drive.format, interactive: drive.answers == nil)
        let input = try AnswerSource(path: drive.answers)
        do {
            let id: String
            if let session {
                id = try store.resolveSession(session)
            } else if let latest = try store.unfinishedSessions(user: storeOptions.user).first {
                id = latest.id
            } else {
                Terminal.write("Nothing to resume: no unfinished session.\n", to: .err)
                throw ExitCode(1)
            }
            // One writer per session: the lease first, then the answers are read.
            let lease = try store.lease(session: id)
            let opened = try SessionResumer(store: store, library: contentOptions.library).open(id)
            try SessionLoop(session: opened, store: store, lease: lease, stamps: stamps, printer: printer, input: input,
                            answersPath: drive.answers).run(resumed: true)
        } catch let e as EngineError {
            printer.fail(e)
            throw ExitCode(1)
        } catch let e as StoreError {
            throw failStore(e)
        }
    }
}

/// Reopens a stored session by replaying its answers.
struct SessionResumer {
    let store: Store
    let library: ContentLibrary

    func open(_ id: String) throws -> FlowSession {
        let detail = try store.detail(id)
        guard detail.session.status == .active else {
            throw EngineError.sessionFinished
        }
        let save = try SessionSave(detail)
        let source = try library.catalog.source(for: save.flow)
        let language = try library.language(for: save.locale, personality: detail.session.personality)
        return try FlowSession.open(source, language: language, options: SessionOptions(sessionID: id, log: flowLog), resuming: save)
    }
}

/// Drives an open session: prints its events, reads answers, journals
/// every change into the store before the next prompt appears.
struct SessionLoop {
    let session: FlowSession
    let store: Store
    /// Held for the whole loop: this process is the session's one writer.
    let lease: SessionLease
    let stamps: Timestamps
    let printer: EventPrinter
    let input: AnswerSource
    let answersPath: String?

    func run(resumed: Bool) throws {
        let clock = FlowClock(iso8601: session.save.now) ?? stamps.current
        let journal = StoreJournal(store: store, sessionID: session.sessionID, day: clock.day, lease: lease, timestamp: stamps.stamp)
        session.journal = journal
        printer.begin(session.definition, language: session.language)
        if resumed, printer.format == .text { printer.note("Resuming where you stopped (\(session.save.answers.count) answered).") }
        if resumed, session.current == nil {
            try journal.finished(session.summary)
        }
        printer.print(session.openingEvents)
        defer { if session.current == nil { lease.release() } }
        while let prompt = session.current {
            guard let next = input.next(for: prompt, printer: printer) else { return } // out of answers: stop, resumable
            switch next {
            case .failure(let e):
                printer.print([.error(code: "answers.invalid", message: e.description, file: answersPath, line: input.lineNumber)])
                throw ExitCode(1)
            case .success(.command(.quit)):
                printer.note("Stopped. Your answers are saved; continue with: reflect resume \(session.sessionID.prefix(8))")
                return
            case .success(let answer):
                let events = try session.submit(answer)
                printer.print(events)
                // After a safety notice, a person at the terminal is offered a
                // pause (never forced); machines send {"command": "quit"}.
                if printer.interactive, printer.format == .text, session.current != nil,
                   case .safety(let notice)? = events.first(where: { if case .safety = $0 { true } else { false } }) {
                    if printer.confirm("\n  " + notice.pause + " [y/N] ", input: input, defaultYes: false) {
                        printer.note("Paused. Your answers are saved; continue with: reflect resume \(session.sessionID.prefix(8))")
                        return
                    }
                }
            }
        }
        // The session is done: an answer still waiting in the file is an
        // error (docs/events.md, session.finished), never silently dropped.
        if answersPath != nil, let extra = input.nextNonBlankLine() {
            printer.print([.error(code: EngineError.sessionFinished.code,
                                  message: "line \(extra): an answer arrived after the session finished (everything before it is saved)",
                                  file: answersPath, line: extra)])
            throw ExitCode(1)
        }
    }
}

let flowLog: @Sendable (String) -> Void = { line in
    Terminal.write("[flow] \(line)\n", to: .err)
}

extension Mood: ExpressibleByArgument {}

/// Where answers come from: a JSONL file or stdin, or a person at the terminal.
final class AnswerSource {
    private let machine: Bool
    private let handle: FileHandle?
    private(set) var lineNumber = 0

    init(path: String?) throws {
        machine = path != nil
        if let path, path != "-" {
            do {
                handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
            } catch {
                throw ValidationError("cannot read answers from \(path): \(error.localizedDescription)")
            }
        } else {
            handle = nil
        }
    }

    /// The next line without its line ending (LF or CRLF); invalid UTF-8
    /// is an error, never replaced.
    func readLine() -> Result<String, AnswerLineError>? {
        guard var bytes = readRawLine() else { return nil }
        if bytes.last == UInt8(ascii: "\r") { bytes.removeLast() }
        guard let line = String(validating: bytes, as: UTF8.self) else {
            let offset = AnswerSource.firstInvalidUTF8(bytes)
            return .failure(AnswerLineError(reason: "not valid UTF-8 (byte 0x\(String(format: "%02X", bytes[offset])) at column \(offset + 1))"))
        }
        return .success(line)
    }

    /// The next line for a yes/no question or a dev command: a line that
    /// is not valid UTF-8 reads as empty. nil at the end of input.
    func readText() -> String? {
        guard let line = readLine() else { return nil }
        if case .success(let text) = line { return text }
        return ""
    }

    /// The number of the next line that is not blank, consuming input (nil at the end).
    func nextNonBlankLine() -> Int? {
        while let line = readLine() {
            lineNumber += 1
            if case .success(let text) = line, text.trimmingCharacters(in: .whitespaces).isEmpty { continue }
            return lineNumber
        }
        return nil
    }

    private var pending: [UInt8] = []
    private var ended = false

    private func readRawLine() -> [UInt8]? {
        while true {
            if let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                let line = Array(pending[..<newline])
                pending.removeSubrange(...newline)
                return line
            }
            if ended {
                guard !pending.isEmpty else { return nil }
                defer { pending.removeAll() }
                return pending
            }
            let chunk = (handle ?? FileHandle.standardInput).availableData
            if chunk.isEmpty { ended = true } else { pending += chunk }
        }
    }

    static func firstInvalidUTF8(_ bytes: [UInt8]) -> Int {
        var i = 0
        while i < bytes.count {
            var end = i + 1
            while end <= min(bytes.count, i + 4), String(validating: bytes[i..<end], as: UTF8.self) == nil { end += 1 }
            if end > min(bytes.count, i + 4) { return i }
            i = end
        }
        return max(0, bytes.count - 1)
    }

    /// The next answer, or nil when input ended.
    func next(for prompt: Prompt, printer: EventPrinter) -> Result<AnswerInput, AnswerLineError>? {
        while true {
            if !machine { printer.ask() }
            guard let read = readLine() else { return nil }
            lineNumber += 1
            let line: String
            switch read {
            case .success(let l): line = l
            case .failure(let e):
                if machine { return .failure(AnswerLineError(reason: "line \(lineNumber): \(e.reason)")) }
                printer.note("That line is \(e.reason); please type it again.")
                continue
            }
            if machine {
                if line.trimmingCharacters(in: .whitespaces).isEmpty { continue }
                do { return .success(try AnswerLine.parse(line)) } catch {
                    return .failure(AnswerLineError(reason: "line \(lineNumber): \(error.reason)"))
                }
            }
            if let typed = TypedAnswer.parse(line, for: prompt) { return .success(typed) }
            printer.note(TypedAnswer.help)
        }
    }
}
