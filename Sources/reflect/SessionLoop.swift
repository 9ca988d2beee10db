import ArgumentParser
import Foundation
import LuaHost
import ReflectCore
import ReflectEngine
import ReflectStoreJournal
import ReflectStore

/// Drives an open session: prints its events, reads answers, journals
/// every change into the store before the next prompt appears.
struct SessionLoop {
    /// `reflect resume ID`, with the options that found this session.
    static func resumeHint(session: String, content: ContentOptions, store: StoreOptions) -> String {
        command("resume", session: session, store: store, content: content.content)
    }

    /// `reflect show ID`, with the `--db` and `--user` that found this session.
    static func showHint(session: String, store: StoreOptions) -> String {
        command("show", session: session, store: store, content: nil)
    }

    /// `reflect VERB ID --db … --user … --content …`, each option only when
    /// it is not the default, quoted for a shell.
    private static func command(_ verb: String, session: String, store: StoreOptions, content: String?) -> String {
        var words = ["reflect", verb, String(session.prefix(8))]
        if let db = store.db { words += ["--db", shellQuoted(db)] }
        if store.user != "default" { words += ["--user", shellQuoted(store.user)] }
        if let content { words += ["--content", shellQuoted(content)] }
        return words.joined(separator: " ")
    }

    static func shellQuoted(_ s: String) -> String {
        s.allSatisfy { $0.isLetter || $0.isNumber || "/._-+=:,@".contains($0) } ? s : "'" + s.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    let session: FlowSession
    let store: Store
    /// Held for the whole loop: this process is the session's one writer.
    let lease: SessionLease
    let stamps: Timestamps
    let printer: EventPrinter
    let input: AnswerSource
    let answersPath: String?
    /// How to continue later, as typed: `reflect resume ID` with the
    /// `--db`, `--content` and `--user` this run was given.
    let resumeHint: String
    /// How to read the session's answers: `reflect show ID` with `--db`, `--user`.
    let showHint: String
    /// Whether the session, as stored now, opens again (a replay of its
    /// answers): after a flow error a person is told `resumeHint` only
    /// when it does, else that their answers are kept and `showHint`.
    let reopens: () -> Bool

    /// Submits `answer`. When the store cannot take it (``EngineError/journal``:
    /// the database held by another process past the wait, a full disk),
    /// the session is back at the same prompt and the answer is still in
    /// hand: a person at the terminal sees the error and is asked whether to
    /// try again, as often as they like, so a passing lock costs nothing they
    /// typed. Declining (or input ending) stops the run, resumable, after
    /// printing a text answer back so it can be copied. Any other error, and
    /// every error for a machine, is thrown as before.
    private func submit(_ answer: AnswerInput, person: Bool) throws -> [FlowEvent] {
        while true {
            do { return try session.submit(answer) } catch {
                guard person, case .journal = error, session.current != nil else { throw error }
                printer.fail(error)
                if printer.confirm("\n  " + printer.text(.terminalRetrySave), input: input, defaultYes: true, whenInputEnds: false) { continue }
                if case .text(let words) = answer { printer.note(printer.text(.terminalNotSaved, words)) }
                printer.note(printer.text(.terminalStopped, resumeHint))
                throw ExitCode(1)
            }
        }
    }

    func run(resumed: Bool) throws {
        // The related-entries index catches up with this run's answers in
        // one transaction when the run stops, however it stops. A failure
        // (a busy database) loses nothing: the answers are durable, and the
        // next search catches up first (docs/storage.md).
        defer { try? store.catchUpRelatedEntries() }
        let clock = FlowClock(iso8601: session.save.now) ?? stamps.current
        // The session's day as the store decides it for imported and
        // migrated sessions too (a facts day that does not read falls back to the clock's).
        let day = Store.sessionDay(factsDay: session.save.facts?.day, clock: clock.iso8601)?.description ?? clock.day
        let journal = StoreJournal(store: store, sessionID: session.sessionID, day: day, lease: lease, timestamp: stamps.stamp)
        session.journal = journal
        printer.begin(session.definition, language: session.language)
        if resumed, printer.format == .text { printer.note(printer.text(.terminalResuming, "\(session.save.answers.count)")) }
        if resumed, session.current == nil {
            try journal.finished(session.summary)
        }
        printer.print(try session.begin())
        defer { if session.current == nil { lease.release() } }
        let person = printer.interactive && printer.format == .text
        // Ctrl-C and Ctrl-D say the answers are saved and how to resume.
        // The command on a line of its own, so that wrapping never splits it.
        if person { InterruptNotice.install("  " + printer.text(.terminalStopped, "\n    " + resumeHint)) }
        while let prompt = session.current {
            guard let next = input.next(for: prompt, printer: printer) else {
                // Out of answers: stop, resumable.
                if person {
                    Terminal.write("\n")
                    printer.note(printer.text(.terminalStopped, resumeHint))
                }
                return
            }
            switch next {
            case .failure(let e):
                printer.print([.error(code: "answers.invalid", message: e.description, file: answersPath, line: input.lineNumber)])
                throw ExitCode(1)
            case .success(.command(.quit)):
                printer.note(printer.text(.terminalStopped, resumeHint))
                return
            case .success(let answer):
                let events: [FlowEvent]
                do { events = try submit(answer, person: person) } catch let error as EngineError {
                    // The flow failed after taking the answer: what the
                    // answer showed (saved, a crisis notice) comes first,
                    // then the error, then what the person can do: resume
                    // when the stored session opens again (the failure did
                    // not come from its answers: a store that could not
                    // write, a time limit), else read what is kept.
                    printer.print(session.shownBeforeFailure)
                    printer.fail(error)
                    if printer.format == .text {
                        printer.note(reopens() ? printer.text(.terminalStopped, resumeHint) : printer.text(.terminalFailedSaved, showHint))
                    }
                    throw ExitCode(1)
                } catch {
                    printer.print(session.shownBeforeFailure)
                    throw error
                }
                // After a safety notice, a person at the terminal is offered a
                // pause (never forced) before anything else is asked: what the
                // answer produced is shown, then the offer and its answer, and
                // only then the next question. Machines read the offer in the
                // `safety` event, which comes before the next `prompt`, and
                // send {"command": "quit"}.
                // A refused answer (too long, out of range, not an option)
                // is offered again on the line, as typed, to correct.
                if person, !isCommand(answer), events.contains(where: { if case .invalid = $0 { true } else { false } }) {
                    input.offerAgain()
                }
                let next = events.firstIndex { if case .prompt = $0 { true } else { false } } ?? events.endIndex
                printer.print(Array(events[..<next]))
                // What is typed at the offer, other than yes or no, is the
                // person's words too: it passes the gate like an answer, and
                // a crisis shows the notice and its resources again before
                // the offer is repeated (docs/safety.md, "Text typed at the
                // pause"). A journal failure there stops the run like one at
                // an answer; the answers before it are saved.
                if printer.interactive, printer.format == .text, session.current != nil,
                   case .safety(let notice)? = events.first(where: { if case .safety = $0 { true } else { false } }) {
                    let paused: Bool
                    do {
                        paused = try printer.confirm("\n  " + notice.pause, input: input, defaultYes: false) { typed in
                            guard let again = try session.screenAtPause(typed, after: notice) else { return false }
                            printer.print([.safety(again)])
                            return true
                        }
                    } catch {
                        // The text was a crisis but could not be recorded:
                        // the resources come before the error all the same.
                        printer.print([.safety(notice)])
                        throw error
                    }
                    if paused {
                        printer.note(printer.text(.terminalPaused, resumeHint))
                        return
                    }
                }
                printer.print(Array(events[next...]))
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

    private func isCommand(_ answer: AnswerInput) -> Bool {
        if case .command = answer { true } else { false }
    }
}
