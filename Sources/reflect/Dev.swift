import ArgumentParser
import Foundation
import ReflectCore
import ReflectEngine
#if canImport(Glibc)
import Glibc
#endif

struct Dev: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run a flow for its author: reloads when the flow or a locale file changes, returning to the same step.",
        discussion: "Nothing is stored. A broken edit shows its diagnostic and the last good version keeps running. Type :back, :quit.")

    @Argument(help: "A flow id or a path to a .lua file.")
    var flow: String

    @OptionGroup var contentOptions: ContentOptions

    @Option(help: "Locale tag.") var locale: String = "en"
    @Option(help: "The mood before the flow.") var mood: Mood?
    @Option(help: "Seconds between checks for changed files.") var interval: Double = 0.3

    func run() throws {
        let library = try contentOptions.open()
        let printer = EventPrinter(format: .text, interactive: true)
        let options = SessionOptions(sessionID: "dev", mood: mood, log: flowLog)
        func load(resuming save: SessionSave?) throws -> FlowSession {
            let language = try library.language(for: locale)
            let source = try library.catalog.source(for: flow, mood: mood)
            return try FlowSession.open(source, language: language, options: options, resuming: save, lenient: true)
        }
        var session: FlowSession
        do { session = try load(resuming: nil) } catch let e as EngineError { throw fail(e) }
        printer.begin(session.definition, language: session.language)
        printer.print(session.openingEvents)
        var stamp = contentStamp(library)
        // At a terminal the line editor reads a keystroke at a time, so a
        // change on disk reloads the flow while a line is half typed (the
        // line is kept and shown again). Piped, lines are read once poll
        // says a whole one is there.
        let editing = LineEditor.available
        let input = try AnswerSource(path: nil, lineEditor: false)
        defer { if editing { LineEditor.end() } }
        while true {
            // A text question takes a multi-line paste as one answer, as `reflect run` does.
            if editing { LineEditor.begin(prompt: printer.askPrompt, joiningPastes: session.current?.kind == .text) } else { printer.ask() }
            // Wait for a line or a change on disk, whichever comes first.
            var line: String?
            while true {
                if stdinReady(timeout: interval) {
                    if editing {
                        switch LineEditor.feed() {
                        case .typing: continue
                        case .end:
                            LineEditor.interrupt()
                            return
                        // Not valid UTF-8 reads as empty, as piped (`AnswerSource.readText`).
                        case .line(let bytes): line = String(validating: bytes, as: UTF8.self) ?? ""
                        }
                    } else {
                        line = input.readText()
                        if line == nil { return }
                    }
                    break
                }
                let now = contentStamp(library)
                guard now != stamp else { continue }
                stamp = now
                if editing { LineEditor.interrupt() }
                do {
                    let reloaded = try load(resuming: session.save)
                    session = reloaded
                    printer.note(printer.text(.devReloaded, "\(session.save.answers.count)"))
                    printer.print(session.openingEvents)
                } catch let e as EngineError {
                    printer.note(printer.text(.devNotLoaded) + "\n  " + e.description + " [\(e.code)]")
                }
                if editing { LineEditor.resume() } else { printer.ask() }
            }
            guard let line, let prompt = session.current else {
                if session.isFinished { printer.note(printer.text(.devFinished)) }
                if line?.trimmingCharacters(in: .whitespaces) == ":quit" { return }
                continue
            }
            guard let typed = TypedAnswer.parse(line, for: prompt) else {
                printer.note(printer.text(.terminalCommands))
                continue
            }
            if case .command(.quit) = typed { return }
            do { printer.print(try session.submit(typed)) } catch {
                printer.print(session.shownBeforeFailure)
                printer.fail(error)
                printer.note(printer.text(.devStopped))
            }
        }
    }

    /// Modification times of the flows and locales, to notice edits.
    private func contentStamp(_ library: ContentLibrary) -> [String: Date] {
        var out: [String: Date] = [:]
        for dir in [library.root.flowsDirectory, library.localesDirectory, library.personalitiesDirectory] {
            guard let walker = FileManager.default.enumerator(at: dir, includingPropertiesForKeys: [.contentModificationDateKey]) else { continue }
            for case let url as URL in walker {
                out[url.path] = (try? url.resourceValues(forKeys: [.contentModificationDateKey]))?.contentModificationDate
            }
        }
        return out
    }

    private func stdinReady(timeout: Double) -> Bool {
        var fds = pollfd(fd: 0, events: Int16(POLLIN), revents: 0)
        return poll(&fds, 1, Int32(timeout * 1000)) > 0
    }
}
