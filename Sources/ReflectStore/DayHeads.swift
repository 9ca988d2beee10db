import Foundation
import GRDB
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// What the writer connection knows of day sets' last rows (Store+DayRuns.swift)
// and ids (`day_set`, migration v24) between journalled answers, so that an
// answer does not read again, in a b-tree that deepens with every year of
// use, what this process wrote or read in an earlier answer: the person's
// showed-up day (every answer after the first of the day), a step's day
// answered again, a completion's day.
//
// Trust, as for the answer write's pending marker (AnswerWrite.swift):
// - across transactions, only while SQLite's data version for the file
//   (`SQLITE_FCNTL_DATA_VERSION`, read under the write lock right after
//   `BEGIN IMMEDIATE`) is the one this connection's last answer transaction
//   left at its commit. It moves with every commit to the file by any
//   connection in any process, and with this connection's other
//   transactions (an import, a mood log, a delete, a back-fill), so any of
//   them makes the next answer forget everything (``AnswerStatements``);
// - within an answer's transaction, every day written goes through
//   ``Store/insertDay(_:day:in:renumber:)`` whatever path writes it (the
//   answer's marks, a completion's mood log, a prep mark), and each finds
//   these heads (``DayHeads/active(in:)``: made current on the writer's
//   thread for the transaction's length by ``Store/writeAnswer(_:)``) and
//   keeps them; a set whose figures are computed again (a day before its
//   last) is forgotten;
// - a failed transaction forgets everything (its rows were rolled back).
// A step set's id is kept under the same rule as its last row: `day_set`
// rows are removed only by a delete-all, which is another transaction.

/// A set's last stored row, as the writer connection knows it.
enum DayHead: Equatable {
    /// The set has no day.
    case empty
    /// Its last day and that day's running figures.
    case last(day: Int, nth: Int, run: Int, best: Int)
}

/// The writer connection's known last rows (with where each set's days are
/// stored, ``DayRows``): of one person's showed-up days
/// (the set every answer marks) and of the few step sets it wrote or read
/// last, newest replacing oldest. A lookup compares a few keys and hashes
/// nothing. Used only inside the writer's access (GRDB serializes it): no
/// lock of its own.
final class DayHeads: @unchecked Sendable {
    /// How many step sets are kept.
    static let stepCapacity = 4
    let connection: OpaquePointer
    private var showedUp: (user: String, head: DayHead)?
    private var steps: [(set: DaySet, rows: DayRows, head: DayHead)] = []
    /// Where the next new step set goes once full.
    private var oldest = 0

    init(connection: OpaquePointer) {
        self.connection = connection
        steps.reserveCapacity(Self.stepCapacity)
    }

    /// Where a set's known head is kept (``known(at:)``, ``set(_:_:_:at:)``).
    enum Slot {
        case showedUp
        case step(Int)
        /// Not known.
        case none
    }

    /// Where `set`'s head is known, if it is.
    func slot(of set: DaySet) -> Slot {
        switch set {
        case .showedUp(let user):
            if let showedUp, showedUp.user == user { return .showedUp }
        case .step:
            for i in steps.indices where steps[i].set == set { return .step(i) }
        }
        return .none
    }

    /// Where the set in `slot` is stored, and its head.
    func known(at slot: Slot) -> (rows: DayRows, head: DayHead)? {
        switch slot {
        case .showedUp: showedUp.map { (.showedUp(user: $0.user), $0.head) }
        case .step(let i): (steps[i].rows, steps[i].head)
        case .none: nil
        }
    }

    /// Records `set`'s head (its days stored in `rows`), in `slot` when it
    /// is known there already.
    func set(_ set: DaySet, _ rows: DayRows, _ head: DayHead, at slot: Slot) {
        switch slot {
        case .showedUp: showedUp?.head = head
        case .step(let i): steps[i].head = head
        case .none:
            switch set {
            case .showedUp(let user): showedUp = (user, head)
            case .step:
                if steps.count < Self.stepCapacity {
                    steps.append((set, rows, head))
                } else {
                    steps[oldest] = (set, rows, head)
                    oldest = (oldest + 1) % Self.stepCapacity
                }
            }
        }
    }

    /// Forgets the set stored in `rows` (its figures are being computed again).
    func forget(_ rows: DayRows) {
        switch rows {
        case .showedUp(let user):
            if showedUp?.user == user { showedUp = nil }
        case .step, .stepBeforeV24:
            if let i = steps.firstIndex(where: { $0.rows == rows }) {
                steps.remove(at: i)
                oldest = 0
            }
        }
    }

    /// Forgets every set (nothing known any more).
    func removeAll() {
        showedUp = nil
        guard !steps.isEmpty else { return }
        steps.removeAll(keepingCapacity: true)
        oldest = 0
    }

    /// How many sets are known.
    var count: Int { (showedUp == nil ? 0 : 1) + steps.count }

    // MARK: The heads of the answer transaction in progress

    /// The heads of the answer transaction running on this thread (GRDB
    /// runs a write's closure, and everything it calls, on one thread).
    private static let current: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        return key
    }()

    /// Makes these the heads every day written on their connection keeps,
    /// on this thread, until ``deactivate()``.
    func activate() {
        pthread_setspecific(Self.current, Unmanaged.passUnretained(self).toOpaque())
    }

    func deactivate() {
        pthread_setspecific(Self.current, nil)
    }

    /// The heads of the answer transaction running on `db`'s connection
    /// (nil outside one: a day is then read and written without them).
    static func active(in db: Database) -> DayHeads? {
        guard let p = pthread_getspecific(current) else { return nil }
        let heads = Unmanaged<DayHeads>.fromOpaque(p).takeUnretainedValue()
        return heads.connection == db.sqliteConnection ? heads : nil
    }
}
