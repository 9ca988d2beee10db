import ArgumentParser
import Foundation
import ReflectCore
import ReflectEngine
import ReflectStore

/// `reflect today`: the Today model at an instant (docs/coach.md, "Today").
struct Today: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Today at a glance: your logical day and phase, the sections to show, the last 7 days, and I Need Help.")

    enum Format: String, ExpressibleByArgument { case text, json }

    @Option(help: "Injected clock, ISO-8601 with offset (default: now).")
    var now: String?

    @Option(help: "text or json.")
    var format: Format = .text

    @Option(help: "Locale for labels (en, de, es, fr, ja, ko, pt-BR).")
    var locale: String = "en"

    @OptionGroup var storeOptions: StoreOptions
    @OptionGroup var contentOptions: ContentOptions

    func run() throws {
        let stamps = try Timestamps(now: now)
        let store = try storeOptions.open(.readOnly)
        let language = try contentOptions.language(locale)
        let model: TodayModel
        do { model = try CoachDay.today(store: store, user: storeOptions.user, clock: stamps.current, language: language) } catch {
            throw failStore(error)
        }
        switch format {
        case .json:
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            Terminal.writeJSON(try encoder.encode(model) + Data("\n".utf8))
        case .text:
            print(Today.text(model, language: language))
        }
    }

    /// What a person glances at in a terminal.
    static func text(_ m: TodayModel, language: Language) -> String {
        func mark(_ mark: ChecklistMark) -> String {
            switch mark {
            case .done: "✓"
            case .partly: "◐"
            case .skip: "–"
            }
        }
        let phase = language.localizer.string("coach.today.phase.\(m.phase.rawValue)") ?? m.phase.rawValue
        var out = ["\(language.localizer.string("coach.today.today") ?? "Today") · \(m.day) · \(phase)"]
        for s in m.sections where s.display != .hidden {
            let state = s.display == .expanded ? "▾" : "▸"
            var line = "\(state) \(s.label)"
            if s.readOnly { line += "  🔒" }
            if s.done == true { line += "  ✓" }
            out.append(line)
            if s.display == .expanded || s.id == .lastNightPrep {
                for l in s.marks { out.append("    \(mark(l.mark)) \(l.text)") }
            }
            out.append("    \(s.link)")
        }
        out.append("✚ \(m.needHelp.label)  \(m.needHelp.link)")
        out.append("")
        // Labels in full ("sáb. • 28 de nov."), padded in display columns (日 takes two).
        let labelWidth = m.lastSevenDays.map { DisplayWidth.of($0.label) }.max() ?? 0
        for d in m.lastSevenDays {
            let marks = d.prep.map { mark($0.mark) }.joined()
            // ☀ the morning check-in, ☾ the evening's, then the day's prep marks.
            out.append("  \(DisplayWidth.padded(d.label, to: labelWidth))  ☀ \(d.morningDone ? "✓" : "·")  "
                       + "☾ \(d.eveningDone ? "✓" : "·")  \(marks)")
        }
        return out.joined(separator: "\n")
    }
}

/// Reads what the coach's day views need from the store.
enum CoachDay {
    static func today(store: Store, user: String, clock: FlowClock, language: Language) throws(StoreError) -> TodayModel {
        let settings = try store.settings(user: user)
        let moment = settings.dayRules.moment(clock)
        let from = moment.day.adding(days: -7)
        let sessions = try store.daySessions(user: user, from: from, to: moment.day, rules: settings.dayRules)
        let marks = try store.prepMarks(user: user, from: from, to: moment.day)
        var days: [CalendarDay: TodayModel.DayRecord] = [:]
        for s in sessions where s.completed {
            if s.flowID == "coach.morning" { days[s.day, default: .init()].morningDone = true }
            if s.flowID == "coach.evening" { days[s.day, default: .init()].eveningDone = true }
        }
        for m in marks {
            guard let d = CalendarDay(m.day) else { continue }
            days[d, default: .init()].prep.append(PrepMark(itemID: m.itemID, mark: m.mark))
        }
        let localizer = language.localizer
        let tag = language.tag
        return TodayModel.build(TodayModel.Input(
            moment: moment, days: days, library: try store.prepLibrary(user: user),
            text: { key in localizer.string(key) ?? key }, dayLabel: { dayLabel($0, locale: tag) }))
    }

    /// "Fri • Aug 30", in the locale's words and order.
    static func dayLabel(_ day: CalendarDay, locale: String) -> String {
        let date = Date(timeIntervalSince1970: Double(day.ordinal) * 86_400 + 43_200)
        let f = DateFormatter()
        f.locale = Locale(identifier: locale)
        f.timeZone = TimeZone(identifier: "UTC")
        f.setLocalizedDateFormatFromTemplate("EEE")
        let weekday = f.string(from: date)
        f.setLocalizedDateFormatFromTemplate("MMMd")
        return "\(weekday) • \(f.string(from: date))"
    }
}
