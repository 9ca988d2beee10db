import Foundation
import ReflectCore

/// The one way `reflect` writes to stdout and stderr.
///
/// Everything a command prints can carry flow or content text (titles,
/// prompts, `print` lines, error messages, stored answers), so nothing is
/// written raw: text goes through ``TerminalText/neutralized(_:)`` (control
/// characters become visible, line feeds and tabs stay), JSON through
/// ``TerminalText/escapedJSONLine(_:)``. Data exports (CSV, PO, XLIFF) are
/// written byte for byte into a pipe or file and neutralised only when the
/// destination is a terminal. The module-level ``print(_:separator:terminator:)``
/// below shadows Swift's, so a plain `print` in this module is safe too.
enum Terminal {
    enum Stream { case out, err }

    private static func handle(_ stream: Stream) -> FileHandle {
        stream == .out ? .standardOutput : .standardError
    }

    /// Text for people.
    static func write(_ text: String, to stream: Stream = .out) {
        handle(stream).write(Data(TerminalText.neutralized(text).utf8))
    }

    /// Text this program builds itself, with ANSI colour sequences (the
    /// heatmap): never content or stored text, which go through ``write(_:to:)``.
    static func writeStyled(_ text: String) {
        handle(.out).write(Data(text.utf8))
    }

    /// Whether colour may be used: stdout is a terminal and `NO_COLOR`
    /// (https://no-color.org) is unset or empty.
    static var colorAllowed: Bool {
        let noColor = ProcessInfo.processInfo.environment["NO_COLOR"] ?? ""
        return noColor.isEmpty && isatty(STDOUT_FILENO) == 1
    }

    /// An encoded JSON document or line (UTF-8), newline included by the caller.
    static func writeJSON(_ data: Data, to stream: Stream = .out) {
        let text = String(decoding: data, as: UTF8.self)
        handle(stream).write(Data(TerminalText.escapedJSONLine(text).utf8))
    }

    /// A data export: raw into a pipe or file, neutralised on a terminal.
    static func writeData(_ data: Data) {
        if isatty(STDOUT_FILENO) == 1 {
            write(String(decoding: data, as: UTF8.self))
        } else {
            FileHandle.standardOutput.write(data)
        }
    }
}

/// Swift's `print`, through ``Terminal``: every `print` in this module
/// neutralises control characters.
func print(_ items: Any..., separator: String = " ", terminator: String = "\n") {
    Terminal.write(items.map { "\($0)" }.joined(separator: separator) + terminator)
}
