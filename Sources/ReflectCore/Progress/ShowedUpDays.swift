/// A set of days on which something happened (the person "showed up", a
/// step was saved, a morning was completed), and the streak arithmetic over
/// it. Pure: "today" is an input, decided by the person's time zone and day
/// boundary before it gets here.
///
/// Contract (spec coach §6): the current streak is the run of consecutive
/// days ending today, or ending yesterday while today has nothing yet (an
/// unlogged today does not break a streak until the day is over).
public struct ShowedUpDays: Sendable, Equatable {
    /// Ascending, without duplicates.
    public let days: [CalendarDay]

    public init<S: Sequence>(_ days: S) where S.Element == CalendarDay {
        var sorted = Array(days)
        sorted.sort()
        var unique: [CalendarDay] = []
        unique.reserveCapacity(sorted.count)
        for d in sorted where unique.last != d { unique.append(d) }
        self.days = unique
    }

    /// From days already ascending and unique (as the store reads them);
    /// anything else is sorted first.
    public init(ascending days: [CalendarDay]) {
        var ordered = true
        for i in days.indices.dropFirst() where days[i - 1] >= days[i] {
            ordered = false
            break
        }
        self = ordered ? ShowedUpDays(trusted: days) : ShowedUpDays(days)
    }

    private init(trusted: [CalendarDay]) { days = trusted }

    public var isEmpty: Bool { days.isEmpty }

    public func contains(_ day: CalendarDay) -> Bool {
        let i = index(atOrAfter: day)
        return i < days.count && days[i] == day
    }

    /// Only the days after `day` (what counts after "reset achievements").
    public func after(_ day: CalendarDay?) -> ShowedUpDays {
        guard let day else { return self }
        return ShowedUpDays(trusted: Array(days[index(atOrAfter: day.adding(days: 1))...]))
    }

    /// Consecutive days ending `today`, or ending yesterday when `today` has
    /// nothing yet. Days after `today` are ignored.
    public func currentStreak(today: CalendarDay) -> Int {
        var i = index(atOrAfter: today.adding(days: 1)) - 1
        guard i >= 0 else { return 0 }
        var expected = days[i] == today ? today : today.adding(days: -1)
        var n = 0
        while i >= 0, days[i] == expected {
            n += 1
            i -= 1
            expected = expected.adding(days: -1)
        }
        return n
    }

    /// The longest run of consecutive days, up to and including `today`.
    public func longestStreak(through today: CalendarDay) -> Int {
        var best = 0, run = 0
        var previous: CalendarDay?
        for d in days {
            if d > today { break }
            run = previous.map { d.ordinal == $0.ordinal + 1 } == true ? run + 1 : 1
            best = max(best, run)
            previous = d
        }
        return best
    }

    /// The first day on which a run of consecutive days reached `length`.
    public func firstDayReaching(_ length: Int) -> CalendarDay? {
        guard length > 0 else { return nil }
        var run = 0
        var previous: CalendarDay?
        for d in days {
            run = previous.map { d.ordinal == $0.ordinal + 1 } == true ? run + 1 : 1
            if run == length { return d }
            previous = d
        }
        return nil
    }

    /// How many of the `count` days ending `today` are in the set.
    public func count(last count: Int, endingOn today: CalendarDay) -> Int {
        let from = index(atOrAfter: today.adding(days: -(count - 1)))
        let to = index(atOrAfter: today.adding(days: 1))
        return max(0, to - from)
    }

    /// How many days of the set fall in `from...to`.
    public func count(from: CalendarDay, to: CalendarDay) -> Int {
        max(0, index(atOrAfter: to.adding(days: 1)) - index(atOrAfter: from))
    }

    /// The streak figures a flow and `reflect progress` show.
    public func figures(today: CalendarDay) -> StreakFigures {
        StreakFigures(current: currentStreak(today: today), longest: longestStreak(through: today),
                      lastSevenDays: count(last: 7, endingOn: today), today: contains(today))
    }

    /// Binary search: the first index whose day is ≥ `day`.
    private func index(atOrAfter day: CalendarDay) -> Int {
        var lo = 0, hi = days.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if days[mid] < day { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }
}
