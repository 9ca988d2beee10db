import ArgumentParser
import Foundation
import ReflectCore
import ReflectEngine
import ReflectStore

/// Where sessions are stored and whose they are; shared by every command
/// that touches the database.
struct StoreOptions: ParsableArguments {
    @Option(help: "Database file (default: $XDG_DATA_HOME/reflect/reflect.sqlite, or ~/.local/share/reflect/reflect.sqlite).")
    var db: String?

    @Option(help: "Whose sessions and moods these are.")
    var user: String = "default"

    /// Opens the database; `.readOnly` for commands that only read (they
    /// then work on a read-only file or mount and during another writer's
    /// lock). `reading: .serialized` for a command whose reads and writes
    /// take turns anyway (`run`, `resume`): one connection to open instead
    /// of two (``Store/Reading``).
    func open(_ access: Store.Access = .readWrite, reading: Store.Reading = .concurrent) throws -> Store {
        do { return try Store(path: db ?? Store.defaultPath(), access: access, reading: reading) } catch { throw failStore(error) }
    }
}

/// The time written into records: `--now` when given (tests, imports of a
/// past day), else the real time.
struct Timestamps {
    let clock: FlowClock?

    init(now: String?) throws {
        if let now {
            guard let c = FlowClock(iso8601: now) else {
                throw ValidationError("--now must be ISO-8601 with an offset, e.g. 2026-11-22T08:30:00+01:00")
            }
            clock = c
        } else {
            clock = nil
        }
    }

    var current: FlowClock { clock ?? .system() }

    var stamp: @Sendable () -> String {
        let fixed = clock
        return { (fixed ?? FlowClock.system()).iso8601 }
    }
}

extension FlowClock {
    /// The local day, YYYY-MM-DD.
    var day: String {
        let t = local
        return FlowClock.zeroPadded(t.year, 4) + "-" + FlowClock.zeroPadded(t.month, 2) + "-" + FlowClock.zeroPadded(t.day, 2)
    }

    /// `v` as `String(format: "%0<width>d", v)` writes it (a sign counts in
    /// the width), without Foundation's formatter on the run path.
    static func zeroPadded(_ v: Int, _ width: Int) -> String {
        let digits = String(v.magnitude)
        let sign = v < 0 ? "-" : ""
        let pad = max(0, width - sign.count - digits.count)
        return sign + String(repeating: "0", count: pad) + digits
    }
}

func failStore(_ error: StoreError) -> ExitCode {
    Terminal.write("error: \(error.description) [\(error.code)]\n", to: .err)
    return ExitCode(1)
}
