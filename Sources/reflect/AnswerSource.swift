import ArgumentParser
import Foundation
import LuaHost
import ReflectCore
import ReflectEngine
import ReflectStoreJournal
import ReflectStore

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
