import Foundation
import GRDB
import GRDBSQLite
import ReflectCore

// The durable answer write (one before every next prompt), on statements the
// writer connection prepares once for it:
//
// - BEGIN IMMEDIATE, the answer's INSERT, the pending marker and COMMIT are
//   stepped straight through SQLite's C API, inside GRDB's writer access
//   (GRDB still serializes every use of the connection; everything else in
//   the answer's transaction goes through GRDB as before). Not on the path:
//   GRDB's statement cache, a dictionary keyed by each statement's SQL, whose
//   text was hashed at every lookup, and GRDB's per-statement bookkeeping
//   (BENCHMARKS.md). GRDB's commit hook still runs; the store registers no
//   transaction observer.
// - Values are bound without SQLite copying them (`SQLITE_STATIC`): they are
//   copied once into a buffer this holder owns, which outlives every step
//   that reads it (each step rebinds all of a statement's values). Text is
//   bound up to its first NUL, as GRDB binds it, so the same values store
//   the same bytes (`DirectStatementTests` compares this path with GRDB's
//   statement arguments over many random answers and edits). A text
//   answer's JSON is written straight into the buffer.
// - INSERT first; when the step already has a row (an edit, a draft answered
//   again: a primary-key conflict, before anything is written), an UPDATE of
//   every other column. Same rows, same triggers as `INSERT … ON CONFLICT DO
//   UPDATE`, which made SQLite open a statement journal in every answer's
//   transaction (its DO UPDATE branch runs triggers).
// - The pending marker (`entry_pending`, Store+SearchCatchUp.swift) is
//   written unless this connection knows the session's marker is in the
//   database: it wrote it in an earlier answer's transaction, and SQLite's
//   data version for the file (`SQLITE_FCNTL_DATA_VERSION`, read under the
//   write lock) has not moved since that transaction committed. It moves
//   with every change to the file, by this connection or any other, in any
//   process, so a catch-up (which empties `entry_pending`) or anything else
//   written in between makes the write mark the session again.
// - The day sets' last rows this connection knows (DayHeads.swift) are
//   trusted on the same terms as the marker.

/// The writer connection's prepared statements for the answer write, and
/// what it knows of the pending marker. Used only inside the writer's
/// access (GRDB serializes it), through ``AnswerWriteCache``.
final class AnswerStatements {
    let connection: OpaquePointer
    private let begin: Statement
    private let insert: Statement
    private let marker: Statement
    private let commit: Statement
    /// Prepared at the first edit.
    private var update: Statement?
    /// Prepared at the first answer that marks days or stores celebrations.
    private var owner: Statement?

    /// The bound values' bytes (see the file's header).
    private var buffer: UnsafeMutableRawPointer
    private var capacity: Int
    private var used = 0

    /// The session whose marker this connection wrote (in this answer
    /// transaction or one since ``version``).
    private var marked: String?
    /// The day sets' last rows this connection knows (DayHeads.swift), as
    /// of ``version``.
    let days: DayHeads
    /// The file's data version right after this connection's last answer
    /// transaction committed: what ``marked`` and ``days`` say holds while
    /// the file's version is still this one (nil: nothing known).
    private var version: UInt32?

    static let insertSQL = """
        INSERT INTO answer (session_id, step, position, kind, question, value, state, answered_at, safety, options)
        VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)
        """
    static let updateSQL = """
        UPDATE answer SET position = ?3, kind = ?4, question = ?5, value = ?6, state = ?7, answered_at = ?8,
                          safety = ?9, options = ?10
        WHERE session_id = ?1 AND step = ?2
        """
    static let markerSQL = "INSERT OR IGNORE INTO entry_pending (session_id) VALUES (?1)"
    static let ownerSQL = "SELECT user, flow_id FROM session WHERE id = ?1"

    init(_ db: Database) throws {
        guard let connection = db.sqliteConnection else { throw DatabaseError(resultCode: .SQLITE_MISUSE, message: "connection closed") }
        self.connection = connection
        days = DayHeads(connection: connection)
        begin = try db.makeStatement(sql: "BEGIN IMMEDIATE TRANSACTION")
        insert = try db.makeStatement(sql: AnswerStatements.insertSQL)
        marker = try db.makeStatement(sql: AnswerStatements.markerSQL)
        commit = try db.makeStatement(sql: "COMMIT TRANSACTION")
        capacity = 1024
        buffer = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 8)
    }

    deinit { buffer.deallocate() }

    /// The file's data version (changes with every change to it, by any
    /// connection; see the file's header).
    private func dataVersion() -> UInt32 {
        var version: UInt32 = 0
        _ = sqlite3_file_control(connection, "main", SQLITE_FCNTL_DATA_VERSION, &version)
        return version
    }

    /// Begins the answer's write transaction (`BEGIN IMMEDIATE`: the write
    /// lock, waited for as GRDB's busy mode says). Forgets the marker and
    /// the days' last rows when anything changed the file since this
    /// connection last knew it.
    func beginTransaction(_ db: Database) throws {
        try step(begin, db)
        if let version, version == dataVersion() { return }
        marked = nil
        days.removeAll()
    }

    /// Commits; what this connection knows stays known as of the version
    /// this commit leaves.
    func commitTransaction(_ db: Database) throws {
        try step(commit, db)
        version = dataVersion()
    }

    /// After a failed transaction (rolled back): nothing is known any more.
    func forget() {
        marked = nil
        days.removeAll()
        version = nil
    }

    /// Writes `answer` (insert, or update of the step's row) and, when it is
    /// an answer the related-entries index will hold, its session's pending
    /// marker (``Store/isIndexable(_:)``).
    func write(_ answer: AnswerRecord, _ db: Database) throws {
        try bind(answer, to: insert)
        let code = sqlite3_step(insert.sqliteStatement)
        if code != SQLITE_DONE {
            let extended = sqlite3_extended_errcode(connection)
            sqlite3_reset(insert.sqliteStatement)
            guard extended == ResultCode.SQLITE_CONSTRAINT_PRIMARYKEY.rawValue else { throw error(code, insert) }
            let update = try self.update ?? db.makeStatement(sql: AnswerStatements.updateSQL)
            self.update = update
            try bind(answer, to: update)
            try step(update, db, reset: false)
        } else {
            sqlite3_reset(insert.sqliteStatement)
        }
        guard Store.isIndexable(answer) else { return }
        if marked == answer.sessionID { return }
        used = 0
        let session = copy(answer.sessionID)
        try bindText(marker, 1, session)
        try step(marker, db)
        marked = answer.sessionID
    }

    /// The person and the flow of `session`, read in the answer's
    /// transaction (nil when there is no such session): its text as GRDB
    /// reads it (up to the first NUL), without a GRDB row (copying every
    /// column into values, then finding each by name: about 20k
    /// instructions of a journalled answer's write).
    func owner(of session: String, _ db: Database) throws -> (user: String, flow: String)? {
        let statement = try self.owner ?? db.makeStatement(sql: AnswerStatements.ownerSQL)
        self.owner = statement
        used = 0
        try bindText(statement, 1, copy(session))
        let code = sqlite3_step(statement.sqliteStatement)
        defer { sqlite3_reset(statement.sqliteStatement) }
        switch code {
        case SQLITE_ROW:
            // Both columns are NOT NULL.
            guard let user = sqlite3_column_text(statement.sqliteStatement, 0),
                  let flow = sqlite3_column_text(statement.sqliteStatement, 1) else { return nil }
            return (String(cString: user), String(cString: flow))
        case SQLITE_DONE:
            return nil
        default:
            throw error(code, statement)
        }
    }

    // MARK: Binding

    private struct Span {
        var offset: Int
        var count: Int
    }

    private func reserve(_ more: Int) {
        guard used + more > capacity else { return }
        let grown = max(capacity * 2, used + more)
        let bigger = UnsafeMutableRawPointer.allocate(byteCount: grown, alignment: 8)
        bigger.copyMemory(from: buffer, byteCount: used)
        buffer.deallocate()
        buffer = bigger
        capacity = grown
    }

    /// Copies `s` up to its first NUL (as GRDB binds text): its UTF-8 read
    /// in place (a native string's always is; anything else is made so).
    private func copy(_ s: String) -> Span {
        if let span = s.utf8.withContiguousStorageIfAvailable({ copy($0) }) { return span }
        var s = s
        return s.withUTF8 { copy($0) }
    }

    private func copy(_ bytes: UnsafeBufferPointer<UInt8>) -> Span {
        var count = bytes.count
        guard let base = bytes.baseAddress, count > 0 else { return Span(offset: used, count: 0) }
        if let nul = memchr(base, 0, count) { count = UnsafeRawPointer(nul) - UnsafeRawPointer(base) }
        reserve(count)
        (buffer + used).copyMemory(from: base, byteCount: count)
        defer { used += count }
        return Span(offset: used, count: count)
    }

    /// The answer's stored JSON (``AnswerValue/storedJSON``), a text
    /// answer's written straight into the buffer.
    private func copyJSON(_ value: AnswerValue) -> Span? {
        guard case .text(var text) = value else { return value.storedJSON.map(copy) }
        return text.withUTF8 { bytes -> Span in
            reserve(bytes.count * 6 + 2)
            let out = (buffer + used).assumingMemoryBound(to: UInt8.self)
            let count = AnswerValue.writeJSONString(bytes, to: out)
            defer { used += count }
            return Span(offset: used, count: count)
        }
    }

    private func bindText(_ statement: Statement, _ index: CInt, _ span: Span?) throws {
        let code: CInt = if let span {
            sqlite3_bind_text(statement.sqliteStatement, index, (buffer + span.offset).assumingMemoryBound(to: CChar.self),
                              CInt(span.count), nil)  // SQLITE_STATIC: the buffer outlives the step
        } else {
            sqlite3_bind_null(statement.sqliteStatement, index)
        }
        guard code == SQLITE_OK else { throw error(code, statement) }
    }

    /// Binds the answer's ten values (the INSERT's and the UPDATE's `?1`…`?10`).
    private func bind(_ answer: AnswerRecord, to statement: Statement) throws {
        used = 0
        let session = copy(answer.sessionID), step = copy(answer.step.rawValue), kind = copy(answer.kind.rawValue)
        let question = copy(answer.question), value = copyJSON(answer.value), state = copy(answer.state.rawValue)
        let answeredAt = copy(answer.answeredAt), safety = answer.safety.map { copy($0.rawValue) }
        // The options as shown, JSON (only choices and checklists have them).
        let options = answer.options.flatMap(StoredJSON.text).map(copy)
        // Nothing is copied from here on: the buffer stays where it is.
        try bindText(statement, 1, session)
        try bindText(statement, 2, step)
        let code = sqlite3_bind_int64(statement.sqliteStatement, 3, Int64(answer.position))
        guard code == SQLITE_OK else { throw error(code, statement) }
        try bindText(statement, 4, kind)
        try bindText(statement, 5, question)
        try bindText(statement, 6, value)
        try bindText(statement, 7, state)
        try bindText(statement, 8, answeredAt)
        try bindText(statement, 9, safety)
        try bindText(statement, 10, options)
    }

    // MARK: Stepping

    private func step(_ statement: Statement, _ db: Database, reset: Bool = true) throws {
        let code = sqlite3_step(statement.sqliteStatement)
        guard code == SQLITE_DONE else {
            let e = error(code, statement)
            sqlite3_reset(statement.sqliteStatement)
            throw e
        }
        sqlite3_reset(statement.sqliteStatement)
    }

    /// SQLite's error, as GRDB would throw it: the extended code, the
    /// message, the statement's SQL.
    private func error(_ code: CInt, _ statement: Statement) -> DatabaseError {
        DatabaseError(resultCode: ResultCode(rawValue: sqlite3_extended_errcode(connection)),
                      message: sqlite3_errmsg(connection).map { String(cString: $0) }, sql: statement.sql)
    }
}

/// The writer connection's ``AnswerStatements``, made at the first answer.
/// Only touched inside the writer's access, which GRDB serializes: no lock.
final class AnswerWriteCache: @unchecked Sendable {
    private var statements: AnswerStatements?

    /// The statements of `db`'s connection (made again if the writer's
    /// connection ever changed).
    func statements(_ db: Database) throws -> AnswerStatements {
        if let statements, statements.connection == db.sqliteConnection { return statements }
        let made = try AnswerStatements(db)
        statements = made
        return made
    }
}

extension AnswerValue {
    /// Writes `s` as a JSON string (``jsonString(_:)``'s bytes: JSONEncoder's
    /// escaping) to `out`, which has room for `6 × s.count + 2` bytes;
    /// returns the count written. Runs of bytes that need no escape are
    /// found and copied eight at a time.
    static func writeJSONString(_ s: UnsafeBufferPointer<UInt8>, to out: UnsafeMutablePointer<UInt8>) -> Int {
        out[0] = 0x22
        var n = 1
        guard let base = s.baseAddress else {
            out[1] = 0x22
            return 2
        }
        let count = s.count
        var i = 0
        while i < count {
            // Sixteen bytes at a time, then eight: runs that need no escape
            // are copied whole.
            while i + 16 <= count {
                let a = UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self)
                let b = UnsafeRawPointer(base + i + 8).loadUnaligned(as: UInt64.self)
                if escapes(a) | escapes(b) != 0 { break }
                UnsafeMutableRawPointer(out + n).storeBytes(of: a, as: UInt64.self)
                UnsafeMutableRawPointer(out + n + 8).storeBytes(of: b, as: UInt64.self)
                i += 16
                n += 16
            }
            while i + 8 <= count {
                let word = UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self)
                if escapes(word) != 0 { break }
                UnsafeMutableRawPointer(out + n).storeBytes(of: word, as: UInt64.self)
                i += 8
                n += 8
            }
            guard i < count else { break }
            let b = base[i]
            i += 1
            n += writeJSONByte(b, to: out + n)
        }
        out[n] = 0x22
        return n + 1
    }

    /// Nonzero exactly when some byte of `w` is escaped in a JSON string: a
    /// control character (below 0x20), `"`, `\` or `/`. The usual tests for
    /// "some byte is below n" and "some byte is zero" (after an XOR), OR-ed
    /// before the one mask: a high bit can be set wrongly only above a byte
    /// that truly matches, so the answer for the word is exact.
    @inline(__always)
    private static func escapes(_ w: UInt64) -> UInt64 {
        let ones: UInt64 = 0x0101_0101_0101_0101, highs: UInt64 = 0x8080_8080_8080_8080
        let q = w ^ (ones &* 0x22), bs = w ^ (ones &* 0x5C), sl = w ^ (ones &* 0x2F)
        let below = (w &- ones &* 0x20) & ~w
        let zero = ((q &- ones) & ~q) | ((bs &- ones) & ~bs) | ((sl &- ones) & ~sl)
        return (below | zero) & highs
    }

    /// One byte of a JSON string's content, escaped when it must be; the
    /// count written (1, 2 or 6).
    @inline(__always)
    private static func writeJSONByte(_ b: UInt8, to out: UnsafeMutablePointer<UInt8>) -> Int {
        if b >= 0x20 && b != 0x22 && b != 0x5C && b != 0x2F {
            out[0] = b
            return 1
        }
        out[0] = 0x5C
        switch b {
        case 0x22, 0x5C, 0x2F: out[1] = b
        case 0x08: out[1] = 0x62
        case 0x0C: out[1] = 0x66
        case 0x0A: out[1] = 0x6E
        case 0x0D: out[1] = 0x72
        case 0x09: out[1] = 0x74
        default:
            let hex: StaticString = "0123456789abcdef"
            out[1] = 0x75
            out[2] = 0x30
            out[3] = 0x30
            out[4] = hex.utf8Start[Int(b >> 4)]
            out[5] = hex.utf8Start[Int(b & 0xF)]
            return 6
        }
        return 2
    }
}
