import CLibedit
import Foundation
import ReflectCore

/// Reading a line through the line editor without blocking, for a loop that
/// also waits on something else (`reflect dev` watches the content files
/// while the author types). Uses libedit's callback interface: the editor
/// takes one keystroke at a time and reports a line once Enter completes it.
///
/// Contract:
/// - ``begin(prompt:joiningPastes:)`` shows the prompt; the editor then
///   owns the line.
/// - Each time stdin is readable, call ``feed()``: `.typing` until Enter
///   completes the line (`.line`, its UTF-8 bytes) or Ctrl-D on an empty
///   line ends input (`.end`). After either, the editor no longer owns the
///   terminal line: call ``begin(prompt:joiningPastes:)`` for the next one.
/// - With `joiningPastes` (a text question), a paste of several lines is
///   one `.line`, its lines joined by line breaks, as
///   ``LineEditor/read(prompt:joiningPastes:)`` reads it: after a line
///   break, what is already waiting within the paste window is read on
///   under the continuation margin, the last pasted line open for editing
///   until Enter. Lines typed ahead, waiting before the prompt was shown,
///   stay one line each.
/// - To print while a line is being typed, call ``interrupt()`` first (it
///   moves to a new line) and ``resume()`` after (it shows the prompt and
///   everything typed so far again, cursor where it was). Nothing typed is
///   lost.
/// - ``end()`` hands the terminal back (for ``LineEditor/read(prompt:)``
///   or for exiting), as it was before the first ``begin(prompt:joiningPastes:)``.
/// - Keys typed between two lines (after Enter, before the next prompt:
///   while the flow answers, reloads or prints) are kept as typed and
///   reach the next line in order: the terminal stays out of the
///   kernel's line mode from the first ``begin(prompt:joiningPastes:)`` to
///   ``end()``, so no key is echoed twice or taken by the kernel (Ctrl-D
///   typed right after Enter still ends input). Ctrl-C in that time hands
///   the terminal back before the process ends.
extension LineEditor {
    enum Step: Equatable {
        case typing
        case line([UInt8])
        case end
    }

    /// What the callback delivered for the line in progress. libedit's
    /// readline interface is process-wide state driven from one thread
    /// (`reflect dev`'s loop), and its callback is a C function that
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

    static func begin(prompt: String, joiningPastes: Bool = false) {
        let first = heldFrom == nil
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
        // Only once the editor has read the terminal's own settings (its
        // keys: Ctrl-D, erase, ...) in the line mode it starts from.
        if first, heldFrom != nil { _ = rl_parse_and_bind("setty -x -icanon -echo") }
    }

    static func feed() -> Step {
        rl_callback_read_char()
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
        guard var saved = heldFrom else { return }
        heldFrom = nil
        // libedit's own line mode again (for `read(prompt:)`), then the
        // person's settings exactly.
        _ = rl_parse_and_bind("setty -x +icanon +echo")
        tcsetattr(STDIN_FILENO, TCSADRAIN, &saved)
    }

    /// The terminal's settings before the first ``begin(prompt:joiningPastes:)``
    /// (nil when not held); restored by ``end()`` or on Ctrl-C.
    nonisolated(unsafe) private static var heldFrom: termios?

    /// libedit's callback interface puts the terminal back in the kernel's
    /// line mode each time a line is complete, until the next prompt. Keys
    /// arriving then are the kernel's: echoed by it (and shown again by the
    /// editor), and Ctrl-D on the empty line becomes an end-of-file mark
    /// that reaches the editor as a NUL byte, so it is lost. Its "between
    /// lines" mode is therefore set to read keys one by one without echo,
    /// as while editing; the person's settings come back at ``end()``.
    private static func holdTerminal() {
        guard heldFrom == nil else { return }
        var saved = termios()
        guard tcgetattr(STDIN_FILENO, &saved) == 0 else { prepare(); return }
        heldFrom = saved
        heldForSignal = saved
        prepare()
        signal(SIGINT) { sig in
            var saved = LineEditor.heldForSignal
            tcsetattr(STDIN_FILENO, TCSANOW, &saved)
            _exit(128 + sig)
        }
    }

    /// A copy of ``heldFrom`` the Ctrl-C handler reads (it may not touch an optional's storage being written).
    nonisolated(unsafe) private static var heldForSignal = termios()
}
