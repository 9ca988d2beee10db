import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The person's terminal settings, held while `reflect` reads lines at the
/// terminal and given back however the process ends.
///
/// The line editor keeps the terminal out of the kernel's line mode from
/// the first prompt until it is done (``LineEditor``), between lines too,
/// so that keys typed while the next prompt is being prepared are neither
/// echoed by the kernel nor taken by it (Ctrl-D). The person's own
/// settings (`stty -g` before `reflect` started) must then come back on
/// every way out: ``release()`` when a command is done with the terminal,
/// and, when it is not called, at exit (a normal end, an error, `exit`)
/// and on SIGINT (Ctrl-C), SIGTERM and SIGHUP. SIGINT also writes the
/// ``interruptNotice(_:)`` when one is set (how to resume a session).
enum HeldTerminal {
    /// Whether the settings are held (``saved`` is the person's).
    nonisolated(unsafe) private static var held = false
    /// The person's settings, written before ``held`` is set; read by the
    /// signal handler and at exit.
    nonisolated(unsafe) private static var saved = termios()
    /// What SIGINT writes after giving the settings back (nil: nothing).
    nonisolated(unsafe) private static var notice: UnsafeMutableBufferPointer<UInt8>?
    nonisolated(unsafe) private static var handlersInstalled = false
    nonisolated(unsafe) private static var exitHookInstalled = false

    /// Saves stdin's terminal settings, unless already held. Returns
    /// whether they are held (false when stdin is not a terminal).
    @discardableResult
    static func hold() -> Bool {
        guard !held else { return true }
        var settings = termios()
        guard tcgetattr(STDIN_FILENO, &settings) == 0 else { return false }
        saved = settings
        held = true
        if !exitHookInstalled {
            exitHookInstalled = true
            atexit { HeldTerminal.giveBack(TCSADRAIN) }
        }
        installHandlers()
        return true
    }

    /// Gives the person's settings back now (once the output written so
    /// far has gone out); nothing when they are not held.
    static func release() {
        giveBack(TCSADRAIN)
    }

    /// Bytes SIGINT writes once the settings are back, before the process
    /// exits with status 130 (prepared here: the handler only writes them).
    static func interruptNotice(_ bytes: [UInt8]) {
        let buffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: bytes.count)
        _ = buffer.initialize(from: bytes)
        notice = buffer
        installHandlers()
    }

    private static func giveBack(_ when: Int32) {
        guard held else { return }
        held = false
        var settings = saved
        tcsetattr(STDIN_FILENO, when, &settings)
    }

    /// SIGINT: settings back, the notice, exit 130. SIGTERM and SIGHUP:
    /// settings back, then the signal's own default action (the process
    /// ends by that signal, as without a handler).
    private static func installHandlers() {
        guard !handlersInstalled else { return }
        handlersInstalled = true
        // A parent may have started us with these blocked; Ctrl-C must work.
        var set = sigset_t()
        sigemptyset(&set)
        for sig in [SIGINT, SIGTERM, SIGHUP] { sigaddset(&set, sig) }
        sigprocmask(SIG_UNBLOCK, &set, nil)
        signal(SIGINT) { _ in
            HeldTerminal.giveBack(TCSANOW)
            if let m = HeldTerminal.notice { _ = write(STDOUT_FILENO, m.baseAddress, m.count) }
            _exit(130)
        }
        let ending: @convention(c) (Int32) -> Void = { sig in
            HeldTerminal.giveBack(TCSANOW)
            signal(sig, SIG_DFL)
            raise(sig)
        }
        signal(SIGTERM, ending)
        // An ignored SIGHUP (`nohup`) stays ignored.
        if !ignored(SIGHUP) { signal(SIGHUP, ending) }
    }

    private static func ignored(_ sig: Int32) -> Bool {
        var current = sigaction()
        guard sigaction(sig, nil, &current) == 0 else { return false }
        return unsafeBitCast(current.__sigaction_handler.sa_handler, to: Int.self) == unsafeBitCast(SIG_IGN, to: Int.self)
    }
}
