import CLibedit
import Foundation
import ReflectCore

/// Reading a line through the line editor one key at a time, for a loop
/// that also waits on something else (`reflect dev` watches the content
/// files while the author types); ``LineEditor/read(prompt:joiningPastes:offering:)``
/// is the same loop waiting only for keys. Uses libedit's callback
/// interface: the editor takes one keystroke at a time and reports a line
/// once Enter completes it.
///
/// Contract:
/// - ``begin(prompt:joiningPastes:offering:)`` shows the prompt; the editor then
///   owns the line.
/// - Each time stdin is readable, call ``feed()``: `.typing` until Enter
///   completes the line (`.line`, its UTF-8 bytes) or Ctrl-D on an empty
///   line ends input (`.end`). After either, the editor no longer owns the
///   terminal line: call ``begin(prompt:joiningPastes:offering:)`` for the next one.
/// - With `joiningPastes` (a text question), a paste of several lines is
///   one `.line`, its lines joined by line breaks, as
///   ``LineEditor/read(prompt:joiningPastes:offering:)`` reads it: after a line
///   break, what is already waiting within the paste window is read on
///   under the continuation margin, the last pasted line open for editing
///   until Enter. Lines typed ahead, waiting before the prompt was shown,
///   stay one line each.
/// - To print while a line is being typed, call ``interrupt()`` first (it
///   moves to a new line) and ``resume()`` after (it shows the prompt and
///   everything typed so far again, cursor where it was). Nothing typed is
///   lost.
/// - ``end()`` hands the terminal back (for exiting, or another program),
///   as it was before the first ``begin(prompt:joiningPastes:offering:)``.
/// - Keys typed between two lines (after Enter, before the next prompt:
///   while the flow answers, reloads or prints) are kept as typed and
///   reach the next line in order: the terminal stays out of the
///   kernel's line mode from the first ``begin(prompt:joiningPastes:offering:)`` to
///   ``end()``, so no key is echoed twice or taken by the kernel (Ctrl-D
///   typed right after Enter still ends input). ``HeldTerminal`` gives the
///   terminal back however the process ends (exit, Ctrl-C, SIGTERM, SIGHUP).
/// - `offering`: text already on the line, editable as if typed (a refused
///   answer, to correct).
/// - When the terminal is gone (hung up), ``feed()`` says `.end`.
extension LineEditor {
    enum Step: Equatable {
        case typing
        case line([UInt8])
        case end
    }

    /// What the callback delivered for the line in progress. libedit's
    /// readline interface is process-wide state driven from one thread
    /// (the loop of `reflect dev`, or ``LineEditor/read(prompt:joiningPastes:offering:)``), and its callback is a C function that
    /// cannot capture: hence one static, read and written on that thread only.
    nonisolated(unsafe) private static var delivered: Step = .typing
    /// Whether the line in progress takes in a multi-line paste, and the
    /// paste's lines completed so far (same thread as `delivered`).
    nonisolated(unsafe) private static var joining = false
    nonisolated(unsafe) private static var pasted: [UInt8]?

    private static let lineHandler: @convention(c) (UnsafeMutablePointer<CChar>?) -> Void = { raw in
        guard let raw else {
            delivered = .end
            return
        }
        delivered = .line(Array(UnsafeRawBufferPointer(start: raw, count: strlen(raw))))
        free(raw)
    }

    static func begin(prompt: String, joiningPastes: Bool = false, offering: String = "") {
        holdTerminal()
        var safe = TerminalText.neutralized(prompt)
        if let width = columns { safe = DisplayWidth.wrapped(safe, width: width) }
        // Lines above the prompt's last are printed; the editor redraws the last.
        if let lastBreak = safe.lastIndex(of: "\n") {
            FileHandle.standardOutput.write(Data(safe[...lastBreak].utf8))
            safe = String(safe[safe.index(after: lastBreak)...])
        }
        delivered = .typing
        joining = joiningPastes && !inputWaiting(milliseconds: 0)
        pasted = nil
        rl_callback_handler_install(safe, lineHandler)
        guard !offering.isEmpty else { return }
        // The editor has drawn the prompt; it draws it again from the
        // line's start, with the offered text after it, cursor at its end.
        lineBytes.note(offering.utf8.count)
        _ = offering.withCString { rl_insert_text($0) }
        FileHandle.standardOutput.write(Data("\r".utf8))
        rl_forced_update_display()
    }

    static func feed() -> Step {
        // The terminal is gone: the editor would wait for a key forever.
        if inputGone {
            rl_callback_handler_remove()
            delivered = .typing
            defer { pasted = nil }
            return pasted.map { .line($0) } ?? .end
        }
        lineBytes.make()
        rl_callback_read_char()
        lineBytes.note(Int(clibedit_line_end()))
        let step = delivered
        guard step != .typing else { return .typing }
        rl_callback_handler_remove()
        delivered = .typing
        switch step {
        case .line(let bytes) where joining:
            let sofar = pasted.map { $0 + [UInt8(ascii: "\n")] + bytes } ?? bytes
            // The rest of a paste is already waiting: same answer, read on.
            if inputWaiting(milliseconds: pasteWindowMilliseconds) {
                pasted = sofar
                rl_callback_handler_install(continuation, lineHandler)
                return .typing
            }
            pasted = nil
            return .line(sofar)
        case .end where pasted != nil:
            // Ctrl-D on the open last line of a paste: the paste is the answer.
            defer { pasted = nil }
            return .line(pasted ?? [])
        default:
            return step
        }
    }

    /// Moves to a new line so that output does not overwrite the line
    /// being typed; follow the output with ``resume()``.
    static func interrupt() {
        FileHandle.standardOutput.write(Data("\n".utf8))
    }

    /// Shows the prompt and the line typed so far again, below the output.
    static func resume() {
        rl_on_new_line()
        rl_forced_update_display()
    }

    static func end() {
        rl_callback_handler_remove()
        delivered = .typing
        pasted = nil
        guard holding else { return }
        holding = false
        if betweenLinesSet {
            betweenLinesSet = false
            // libedit's own line mode between lines again.
            _ = rl_parse_and_bind("setty -x +icanon +echo")
        }
        HeldTerminal.release()
    }

    /// Whether the person's terminal settings are held (``HeldTerminal``)
    /// since the first line, and whether the editor's between-lines mode
    /// is set to keep keys.
    nonisolated(unsafe) private static var holding = false
    nonisolated(unsafe) private static var betweenLinesSet = false

    /// libedit puts the terminal back in the kernel's line mode each time
    /// a line is complete, until the next prompt. Keys arriving then are
    /// the kernel's: echoed by it (and shown again by the editor), and
    /// Ctrl-D on the empty line becomes an end-of-file mark that reaches
    /// the editor as a NUL byte, so it is lost. Its "between lines" mode
    /// is therefore set, once, to read keys one by one without echo, as
    /// while editing; the person's settings come back at ``end()`` or
    /// however the process ends. Only once the editor has read the
    /// terminal's own settings (its keys: Ctrl-D, erase, ...) in the line
    /// mode it starts from, which it does on entering its editing mode:
    /// it enters and leaves it once, showing nothing, before the first
    /// prompt.
    static func holdTerminal() {
        if !holding { holding = HeldTerminal.hold() }
        prepare()
        guard holding, !betweenLinesSet else { return }
        betweenLinesSet = true
        rl_callback_handler_install("", lineHandler)
        rl_callback_handler_remove()
        _ = rl_parse_and_bind("setty -x -icanon -echo")
    }

    /// libedit's callback interface writes a NUL at `rl_line_buffer[rl_end]`
    /// after each key (Debian's libedit 3.1-20221030, `_rl_update_pos`),
    /// but `rl_line_buffer` still points at the line's first conversion
    /// buffer, freed once a line outgrows it (about 3,000 bytes): a longer
    /// paste corrupted the heap and `reflect` aborted. The editor is given
    /// a buffer of ours instead, always longer than the line can be after
    /// one more key: a key adds at most one character or the kill buffer
    /// (Ctrl-Y), never longer than the longest line seen (lines read whole
    /// by ``LineEditor/read(prompt:joiningPastes:offering:)`` included).
    nonisolated(unsafe) static var lineBytes = LineBytes()

    struct LineBytes {
        private var buffer: UnsafeMutablePointer<CChar>?
        private var capacity = 0
        private var longest = 0

        /// A line of `count` bytes was on the editor.
        mutating func note(_ count: Int) { longest = max(longest, count) }

        /// `rl_line_buffer` points at room for the longest line twice over.
        mutating func make() {
            let needed = 2 * longest + 4_096
            if capacity < needed {
                buffer?.deallocate()
                let room = UnsafeMutablePointer<CChar>.allocate(capacity: needed)
                room.initialize(repeating: 0, count: needed)
                buffer = room
                capacity = needed
            }
            clibedit_set_line_buffer(buffer)
        }
    }
}
