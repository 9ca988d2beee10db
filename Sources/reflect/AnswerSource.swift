import ArgumentParser
import Foundation
import LuaHost
import ReflectCore
import ReflectEngine
import ReflectStoreJournal
import ReflectStore

/// Where answers come from: a JSONL file or stdin, or a person at the
/// terminal. A person at a terminal types through ``LineEditor`` (arrow
/// keys, backspace over wide characters, no length limit); piped input is
/// read as bytes, line by line, and never cut.
final class AnswerSource {
    private let machine: Bool
    private let handle: FileHandle?
    /// Whether lines come from the line editor (a person at a terminal).
    private let editing: Bool
    private(set) var lineNumber = 0

    /// - Parameter lineEditor: read through the line editor when stdin and
    ///   stdout are terminals and no answers file was given.
    init(path: String?, lineEditor: Bool = true) throws {
        machine = path != nil
        editing = path == nil && lineEditor && LineEditor.available
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

    /// The next line without its line ending (LF or CRLF), after showing
    /// `prompt` (to a person; nothing for a machine); invalid UTF-8 is an
    /// error, never replaced.
    /// `joiningPastes`: the line editor takes a multi-line paste as one
    /// line (a text question's answer; ``LineEditor/read(prompt:joiningPastes:offering:)``).
    /// `offering`: text already on the line editor's line, editable as if
    /// typed (a refused answer, to correct; nothing when not editing).
    func readLine(prompt: String = "", joiningPastes: Bool = false, offering: String = "") -> Result<String, AnswerLineError>? {
        let raw: [UInt8]?
        if editing {
            raw = LineEditor.read(prompt: prompt, joiningPastes: joiningPastes, offering: offering)
        } else {
            if !prompt.isEmpty { Terminal.write(prompt) }
            raw = readRawLine()
        }
        guard var bytes = raw else { return nil }
        if bytes.last == UInt8(ascii: "\r") { bytes.removeLast() }
        guard let line = String(validating: bytes, as: UTF8.self) else {
            let offset = AnswerSource.firstInvalidUTF8(bytes)
            return .failure(AnswerLineError(reason: "not valid UTF-8 (byte 0x\(String(format: "%02X", bytes[offset])) at column \(offset + 1))"))
        }
        return .success(line)
    }

    /// The next line for a yes/no question or a dev command: a line that
    /// is not valid UTF-8 reads as empty. nil at the end of input.
    func readText(prompt: String = "") -> String? {
        guard let line = readLine(prompt: prompt) else { return nil }
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

    private var lines = ChunkedLines()

    private func readRawLine() -> [UInt8]? {
        let input = handle ?? FileHandle.standardInput
        return lines.next { [UInt8](input.availableData) }
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

    /// The line a person typed for the last answer, and what the next
    /// answer's line starts with (``offerAgain()``).
    private var lastTyped = ""
    private var offering = ""

    /// The last answer typed at the terminal was refused (too long, out of
    /// range, not an option): the next line starts with it, as typed, for
    /// the person to correct instead of typing it all again.
    func offerAgain() {
        if editing { offering = lastTyped }
    }

    /// The next answer, or nil when input ended.
    func next(for prompt: Prompt, printer: EventPrinter) -> Result<AnswerInput, AnswerLineError>? {
        while true {
            let offered = offering
            offering = ""
            guard let read = readLine(prompt: machine ? "" : printer.askPrompt, joiningPastes: prompt.kind == .text,
                                      offering: offered) else { return nil }
            lineNumber += 1
            let line: String
            switch read {
            case .success(let l): line = l
            case .failure(let e):
                if machine { return .failure(AnswerLineError(reason: "line \(lineNumber): \(e.reason)")) }
                printer.note(printer.text(.terminalRetype, e.reason))
                continue
            }
            if machine {
                if line.trimmingCharacters(in: .whitespaces).isEmpty { continue }
                do { return .success(try AnswerLine.parse(line)) } catch {
                    return .failure(AnswerLineError(reason: "line \(lineNumber): \(error.reason)"))
                }
            }
            lastTyped = line
            if let typed = TypedAnswer.parse(line, for: prompt) { return .success(typed) }
            printer.note(printer.text(.terminalCommands))
            // A mistyped command (":qiut"): offered again to correct.
            offerAgain()
        }
    }
}
