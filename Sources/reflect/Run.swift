import ArgumentParser
import Foundation
import LuaHost
import ReflectCore
import ReflectEngine

struct Run: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run a flow interactively, or drive it with answers (machine interface).",
        discussion: """
            FLOW is a flow id (reflection.negative), a family with --mood (reflection --mood bad), \
            or a path to a .lua file. At a prompt, type :back, :skip, :keep or :quit.
            """)

    @Argument(help: "A flow id, a family such as 'reflection' (with --mood), or a path to a .lua file.")
    var flow: String

    @OptionGroup var contentOptions: ContentOptions

    @Option(help: "The mood before the flow: horrible, bad, average, good or great.")
    var mood: Mood?

    @Option(help: "Locale tag (en, de, es, fr, ja, ko, pt-BR); falls back along tag → language → en.")
    var locale: String = "en"

    @Option(help: "Read answers from FILE (one JSON value per line; '-' for stdin) instead of asking.")
    var answers: String?

    @Option(help: "Output format: text (for people) or jsonl (one event per line).")
    var format: OutputFormat = .text

    @Option(help: "Injected clock, ISO-8601 with offset (default: now).")
    var now: String?

    @Option(help: "Seed for the flow's random draws.")
    var seed: UInt64 = 0

    enum OutputFormat: String, ExpressibleByArgument { case text, jsonl }

    func run() throws {
        let library = contentOptions.library
        var clock = FlowClock.system()
        if let now {
            guard let parsed = FlowClock(iso8601: now) else {
                throw ValidationError("--now must be ISO-8601 with an offset, e.g. 2026-11-22T08:30:00+01:00")
            }
            clock = parsed
        }
        let input: AnswerSource
        do {
            input = try AnswerSource(path: answers)
        } catch {
            throw ValidationError("cannot read answers from \(answers ?? "-"): \(error.localizedDescription)")
        }
        let options = SessionOptions(mood: mood, clock: clock, seed: seed, log: { line in
            FileHandle.standardError.write(Data("[flow] \(line)\n".utf8))
        })
        let printer = EventPrinter(format: format, interactive: answers == nil)

        do {
            let language = try library.language(for: locale)
            let source = try library.catalog.source(for: flow, mood: mood)
            let session = try FlowSession.open(source, language: language, options: options)
            printer.begin(session.definition, language: language)
            printer.print(session.openingEvents)
            while let prompt = session.current {
                guard let next = input.next(for: prompt, printer: printer) else { return } // out of answers: stop
                switch next {
                case .failure(let e):
                    printer.print([.error(code: "answers.invalid", message: e.description, file: answers, line: input.lineNumber)])
                    throw ExitCode(1)
                case .success(.command(.quit)):
                    printer.note("Stopped. Your answers so far are kept in this run only until sessions are stored.")
                    return
                case .success(let answer):
                    printer.print(try session.submit(answer))
                }
            }
        } catch let e as EngineError {
            printer.fail(e)
            throw ExitCode(1)
        }
    }
}

extension Mood: ExpressibleByArgument {}

/// Where answers come from: a JSONL file or stdin, or a person at the terminal.
final class AnswerSource {
    private let machine: Bool
    private let handle: FileHandle?
    private var buffered: [String] = []
    private(set) var lineNumber = 0

    init(path: String?) throws {
        machine = path != nil
        if let path, path != "-" {
            handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
        } else {
            handle = nil
        }
    }

    private func readLine() -> String? {
        guard let handle else { return Swift.readLine(strippingNewline: true) }
        if buffered.isEmpty {
            let data = handle.readDataToEndOfFile()
            guard !data.isEmpty else { return nil }
            buffered = String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).map(String.init).reversed()
            if buffered.first == "" { buffered.removeFirst() }
        }
        return buffered.popLast()
    }

    /// The next answer, or nil when input ended.
    func next(for prompt: Prompt, printer: EventPrinter) -> Result<AnswerInput, AnswerLineError>? {
        while true {
            if !machine { printer.ask() }
            guard let line = readLine() else { return nil }
            lineNumber += 1
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
