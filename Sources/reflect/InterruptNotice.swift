import Foundation
import ReflectCore

/// Ctrl-C during a session at the terminal: instead of ending silently,
/// `reflect` says the answers are saved and how to resume (every answer is
/// stored before the next question, so nothing is lost but the line being
/// typed), then exits with status 130. The terminal gets the person's
/// settings back first (``HeldTerminal``).
enum InterruptNotice {
    /// `text` is wrapped at word boundaries to the terminal's width now, as
    /// every other line is (the signal handler cannot measure anything).
    static func install(_ text: String) {
        let shown = LineEditor.columns.map { DisplayWidth.wrapped(text, width: $0) } ?? text
        HeldTerminal.interruptNotice(Array(("\n" + TerminalText.neutralized(shown) + "\n").utf8))
    }
}
