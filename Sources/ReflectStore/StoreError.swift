/// Why the store could not do what was asked.
public enum StoreError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The database file cannot be opened or created (path, reason).
    case cannotOpen(path: String, reason: String)
    /// SQLite failed (after retries for a busy database).
    case database(String)
    /// No session with this id (or id prefix).
    case sessionNotFound(String)
    /// An id prefix matches more than one session.
    case ambiguousSession(String, matches: Int)
    /// An import file is invalid: which record and field, and why. Nothing
    /// was written.
    case invalidImport(record: String, field: String, reason: String)

    public var code: String {
        switch self {
        case .cannotOpen: "store.cannot_open"
        case .database: "store.database"
        case .sessionNotFound: "store.session_not_found"
        case .ambiguousSession: "store.ambiguous_session"
        case .invalidImport: "import.invalid"
        }
    }

    public var description: String {
        switch self {
        case .cannotOpen(let path, let reason): "cannot open the database at \(path): \(reason)"
        case .database(let m): "database error: \(m)"
        case .sessionNotFound(let id): "no session '\(id)'"
        case .ambiguousSession(let id, let n): "'\(id)' matches \(n) sessions; give more of the id"
        case .invalidImport(let record, let field, let reason):
            field.isEmpty ? "invalid import: \(record): \(reason)" : "invalid import: \(record).\(field): \(reason)"
        }
    }
}
