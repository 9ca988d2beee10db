import GRDB
import GRDBSQLite

// The durable answer write's statements, run with their values bound
// straight through SQLite's C API (`sqlite3_bind_*`, `sqlite3_step`) instead
// of GRDB's `StatementArguments`, which boxes every value and re-binds it
// through a nest of closures: about a third of the write's instructions
// (BENCHMARKS.md). The statements are GRDB's cached ones (prepared once per
// connection), inside a transaction GRDB began; only INSERT / UPDATE
// statements run this way, never BEGIN, COMMIT or a SAVEPOINT, whose
// effect GRDB tracks through its own execution. Text is bound as GRDB binds
// it (up to its first NUL, copied), so the same values store the same bytes:
// `DirectStatementTests` compares the two paths over many random answers.

/// A value bound directly: text, a whole number, or NULL.
enum DirectArgument {
    case text(String)
    case integer(Int)
    case null

    /// `text` when there is one, else NULL.
    static func text(_ s: String?) -> DirectArgument { s.map { .text($0) } ?? .null }
}

/// SQLite's "copy this value" destructor (`SQLITE_TRANSIENT`, a C macro).
private let transient = unsafeBitCast(OpaquePointer(bitPattern: -1), to: sqlite3_destructor_type.self)

extension Statement {
    /// Runs this INSERT / UPDATE statement once with `arguments` (one per
    /// `?`, in order), bound directly; throws a `DatabaseError` as GRDB
    /// would (SQLite's extended code and message, this statement's SQL).
    func executeDirect(_ arguments: [DirectArgument], in db: Database) throws {
        let statement = sqliteStatement
        sqlite3_reset(statement)
        for (i, argument) in arguments.enumerated() {
            let index = CInt(i + 1)
            let code: CInt = switch argument {
            case .text(let s): s.withCString { sqlite3_bind_text(statement, index, $0, -1, transient) }
            case .integer(let n): sqlite3_bind_int64(statement, index, Int64(n))
            case .null: sqlite3_bind_null(statement, index)
            }
            guard code == SQLITE_OK else { throw directError(code, in: db) }
        }
        let code = sqlite3_step(statement)
        guard code == SQLITE_DONE else {
            let error = directError(code, in: db)
            sqlite3_reset(statement)
            throw error
        }
        sqlite3_reset(statement)
    }

    private func directError(_ code: CInt, in db: Database) -> DatabaseError {
        let connection = db.sqliteConnection
        let extended = connection.map { sqlite3_extended_errcode($0) } ?? code
        return DatabaseError(resultCode: ResultCode(rawValue: extended),
                             message: connection.flatMap { sqlite3_errmsg($0) }.map { String(cString: $0) }, sql: sql)
    }
}
