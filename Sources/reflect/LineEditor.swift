import CLibedit
import Foundation
import ReflectCore

/// The line editor used when a person types at a terminal: Debian's libedit
/// (BSD editline) through its readline interface. Arrow keys move the
/// cursor, backspace removes whole characters (CJK included, two columns
/// wide), and a line has no length limit: the terminal is in raw mode, so
/// the kernel's 4,095-byte canonical-line limit does not apply, and a
/// pasted answer of any size arrives whole (validation then refuses what is
/// too long, saying so; nothing is cut).
///
/// Privacy: history is off (nothing is added to it, nothing is read from or
/// written to a file), and Tab inserts a tab instead of completing file
/// names. Used only when both stdin and stdout are terminals; otherwise
/// `AnswerSource` reads bytes.
enum LineEditor {
    /// Whether the line editor applies (stdin and stdout are terminals).
    static var available: Bool { isatty(STDIN_FILENO) == 1 && isatty(STDOUT_FILENO) == 1 }

    /// The terminal's width in columns when stdout is a terminal (nil
    /// otherwise, or when it cannot be told).
    static var columns: Int? {
        guard isatty(STDOUT_FILENO) == 1 else { return nil }
        prepare()
        var rows: Int32 = 0, cols: Int32 = 0
        rl_get_screen_size(&rows, &cols)
        return cols > 10 ? Int(cols) : nil
    }

    /// libedit reads and writes through these process-wide settings; set once.
    nonisolated(unsafe) private static var prepared = false

    static func prepare() {
        guard !prepared else { return }
        prepared = true
        // Wide characters need a UTF-8 character type; keep the person's
        // when it is one, else use C.UTF-8 (always present on Debian).
        setlocale(LC_CTYPE, "")
        if let codeset = nl_langinfo(nl_item(CODESET)), String(cString: codeset) != "UTF-8" {
            setlocale(LC_CTYPE, "C.UTF-8")
        }
        rl_initialize()
        // No history: a person's answers never sit in a buffer to recall, nor in a file.
        stifle_history(0)
        // Tab is text here, not a file-name completion.
        rl_bind_key(Int32(UInt8(ascii: "\t")), rl_insert)
    }

    /// Reads one line (its UTF-8 bytes) after showing `prompt`; nil at the
    /// end of input (Ctrl-D on an empty line). With `joiningPastes` (a text
    /// question), every line of a multi-line paste, joined by line breaks:
    /// one answer. Lines typed ahead, before the prompt was shown, stay
    /// one answer each (they were typed for the questions in turn). A
    /// prompt with line breaks is printed up to its last line, which the
    /// editor redraws as it edits. `offering`: text already on the line,
    /// editable as if typed (a refused answer, to correct).
    ///
    /// From the first line on, the terminal stays out of the kernel's line
    /// mode between lines too (``holdTerminal()``, as for
    /// ``begin(prompt:joiningPastes:offering:)``): keys typed before the
    /// next prompt reach it as typed, and the terminal gets the person's
    /// settings back at ``end()`` or however the process ends.
    static func read(prompt: String, joiningPastes: Bool = false, offering: String = "") -> [UInt8]? {
        // Only the key-at-a-time editor can start with text on the line
        // (libedit's `readline` empties it first). It costs the whole line
        // at each key, so a line is otherwise read whole: a paste of
        // 10,000 characters takes seconds, not minutes.
        guard offering.isEmpty else { return readKeys(prompt: prompt, joiningPastes: joiningPastes, offering: offering) }
        holdTerminal()
        var safe = TerminalText.neutralized(prompt)
        if let width = columns { safe = DisplayWidth.wrapped(safe, width: width) }
        var head = "", tail = safe
        if let lastBreak = safe.lastIndex(of: "\n") {
            head = String(safe[...lastBreak])
            tail = String(safe[safe.index(after: lastBreak)...])
        }
        if !head.isEmpty { FileHandle.standardOutput.write(Data(head.utf8)) }
        let typedAhead = inputWaiting(milliseconds: 0)
        guard var line = readLine(tail) else { return nil }
        guard joiningPastes, !typedAhead else { return line }
        // A paste of several lines arrives all at once: when the editor
        // returns at a line break, the rest of the paste is already waiting.
        // It belongs to the same answer (a paragraph pasted into one
        // question must not answer the next ones), so it is read on, one
        // line at a time under a blank margin, until nothing more is
        // waiting; the last pasted line stays open for editing and Enter.
        // A person cannot type Enter and the next key within this window.
        while inputWaiting(milliseconds: pasteWindowMilliseconds) {
            guard let more = readLine(continuation) else { break }
            line += [UInt8(ascii: "\n")] + more
        }
        return line
    }

    /// How long after a line break the next byte of the same paste may take
    /// to arrive.
    static let pasteWindowMilliseconds: Int32 = 30

    /// The margin under which a pasted answer's further lines are shown.
    static let continuation = "  "

    private static func readLine(_ prompt: String) -> [UInt8]? {
        guard let raw = readline(prompt) else { return nil }
        defer { free(raw) }
        let count = strlen(raw)
        lineBytes.note(count)
        return Array(UnsafeRawBufferPointer(start: raw, count: count))
    }

    /// ``read(prompt:joiningPastes:offering:)`` through the key-at-a-time
    /// editor, which can start with `offering` on the line.
    private static func readKeys(prompt: String, joiningPastes: Bool, offering: String) -> [UInt8]? {
        begin(prompt: prompt, joiningPastes: joiningPastes, offering: offering)
        while true {
            var fds = pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)
            while poll(&fds, 1, -1) < 0, errno == EINTR {}
            switch feed() {
            case .typing: continue
            case .line(let bytes): return bytes
            case .end: return nil
            }
        }
    }

    /// Whether the terminal is gone (hung up, closed) with nothing left to read.
    static var inputGone: Bool {
        var fds = pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)
        guard poll(&fds, 1, 0) > 0, fds.revents & Int16(POLLHUP | POLLERR | POLLNVAL) != 0 else { return false }
        var waiting: Int32 = 0
        return ioctl(STDIN_FILENO, UInt(FIONREAD), &waiting) != 0 || waiting == 0
    }

    /// Whether input is waiting on stdin, within `milliseconds`.
    static func inputWaiting(milliseconds: Int32) -> Bool {
        var fds = pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)
        return poll(&fds, 1, milliseconds) > 0 && fds.revents & Int16(POLLIN) != 0
    }
}
