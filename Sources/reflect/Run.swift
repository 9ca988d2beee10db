import ArgumentParser
import Foundation
import LuaHost
import ReflectCore
import ReflectEngine

struct Run: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run a flow interactively, or drive it with answers (machine interface).")

    @Argument(help: "A flow id (demo.check-in) or a path to a .lua flow file.")
    var flow: String

    @OptionGroup var contentOptions: ContentOptions

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
        let printer = EventPrinter(format: format)
        let root: ContentRoot
        if let dir = contentOptions.content {
            root = ContentRoot(URL(fileURLWithPath: dir, isDirectory: true))
        } else if let found = ContentRoot.locate() {
            root = found
        } else {
            root = ContentRoot(URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true))
        }
        var clock = FlowClock.system()
        if let now {
            guard let parsed = FlowClock(iso8601: now) else {
                throw ValidationError("--now must be ISO-8601 with an offset, e.g. 2026-11-22T08:30:00+01:00")
            }
            clock = parsed
        }
        let options = SessionOptions(clock: clock, seed: seed, log: { line in
            FileHandle.standardError.write(Data("[flow] \(line)\n".utf8))
        })
        let input: AnswerSource
        do {
            input = try AnswerSource(path: answers)
        } catch {
            throw ValidationError("cannot read answers from \(answers ?? "-"): \(error.localizedDescription)")
        }

        do {
            let source = try FlowCatalog(root: root).source(for: flow)
            let session = try FlowSession.open(source, options: options)
            printer.print(session.openingEvents)
            while let prompt = session.current {
                guard let next = input.next(for: prompt, printer: printer) else { return } // out of answers: stop, resumable
                switch next {
                case .failure(let e):
                    printer.print([.error(code: "answers.invalid", message: e.description, file: answers, line: input.lineNumber)])
                    throw ExitCode(1)
                case .success(.command(.quit)):
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
            guard let line = readLine() else { return nil }
            lineNumber += 1
            if machine {
                if line.trimmingCharacters(in: .whitespaces).isEmpty { continue }
                do { return .success(try AnswerLine.parse(line)) } catch {
                    return .failure(AnswerLineError(reason: "line \(lineNumber): \(error.reason)"))
                }
            }
            if line == ":quit" { return .success(.command(.quit)) }
            return .success(.text(line))
        }
    }
}
