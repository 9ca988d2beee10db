import Foundation
import ReflectCore

/// Ctrl-C during a session at the terminal: instead of ending silently,
/// `reflect` says the answers are saved and how to resume (every answer is
/// stored before the next question, so nothing is lost but the line being
/// typed), then exits with status 130. The line editor restores the
/// terminal before this handler runs.
enum InterruptNotice {
    /// The message, prepared before any signal can arrive: the handler only
    /// writes these bytes (async-signal-safe) and exits.
    nonisolated(unsafe) private static var message: UnsafeMutableBufferPointer<UInt8>?

    /// `text` is wrapped at word boundaries to the terminal's width now, as
    /// every other line is (the handler cannot measure anything).
    static func install(_ text: String) {
        let shown = LineEditor.columns.map { DisplayWidth.wrapped(text, width: $0) } ?? text
        let bytes = Array(("\n" + TerminalText.neutralized(shown) + "\n").utf8)
        let buffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: bytes.count)
        _ = buffer.initialize(from: bytes)
        message = buffer
        // A parent may have started us with SIGINT blocked; Ctrl-C must work.
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, SIGINT)
        sigprocmask(SIG_UNBLOCK, &set, nil)
        signal(SIGINT) { _ in
            if let m = InterruptNotice.message { _ = write(STDOUT_FILENO, m.baseAddress, m.count) }
            _exit(130)
        }
    }
}
