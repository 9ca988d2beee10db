import ArgumentParser
import Foundation
import ReflectCore
import ReflectEngine
import ReflectStore

/// `reflect reminders`: the daily reminder schedule, as data or as an
/// iCalendar file any calendar can import (docs/coach.md, "Reminders").
struct Reminders: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Your reminders (times from your settings; daily, and the weekly parts letter when set) as JSON, text or an .ics calendar file.")

    enum Format: String, ExpressibleByArgument { case text, json, ics }

    @Option(help: "text, json or ics (RFC 5545: one repeating event with an alarm per reminder).")
    var format: Format = .text

    @Option(help: "Locale of the copy (en, de, es, fr, ja, ko, pt-BR).")
    var locale: String = "en"

    @Option(help: "Notification voice for this output: nice or rude (default: your setting).")
    var voice: NotificationVoice?

    @Option(help: "Injected clock, ISO-8601 with offset (default: now): the first day and the file's time stamp.")
    var now: String?

    @Option(help: "Write to FILE instead of stdout.")
    var out: String?

    @OptionGroup var storeOptions: StoreOptions
    @OptionGroup var contentOptions: ContentOptions

    struct Item: Encodable {
        var id: String
        var time: String
        var title: String
        var body: String
        var opens: String
        /// `daily`, or `weekly` on `weekday` (`sun` … `sat`).
        var repeats: String
        var weekday: String?
    }

    func run() throws {
        let stamps = try Timestamps(now: now)
        let store = try storeOptions.open(.readOnly)
        let language = try contentOptions.language(locale)
        let settings: Settings
        do { settings = try store.settings(user: storeOptions.user) } catch { throw failStore(error) }
        let chosen = voice ?? settings.voice
        func text(_ key: String) -> String { language.localizer.string(key) ?? key }
        let schedule = Reminder.schedule(settings)
        let items = schedule.map { r in
            Item(id: r.id.rawValue, time: r.time.description, title: text(r.titleKey), body: text(r.bodyKey(chosen)), opens: r.link.url,
                 repeats: r.weekday == nil ? "daily" : "weekly", weekday: r.weekday.flatMap { WeeklyTime(weekday: $0, time: r.time) }
                    .map { String($0.description.prefix(3)) })
        }
        let data: Data
        switch format {
        case .json:
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes, .prettyPrinted]
            data = try encoder.encode(items) + Data("\n".utf8)
        case .text:
            let when = schedule.map(\.schedule)
            let width = when.map(\.count).max() ?? 0
            data = Data(zip(when, items).map { w, i in
                w.padding(toLength: width, withPad: " ", startingAt: 0) + "  \(i.title) — \(i.body)  (\(i.opens))"
            }.joined(separator: "\n").utf8 + [10])
        case .ics:
            let moment = settings.dayRules.moment(stamps.current)
            let events = zip(schedule, items).map { r, i in
                ICalendar.Event(uid: "\(i.id).\(Reminders.userTag(storeOptions.user))@reflect", start: r.time, title: i.title, body: i.body,
                                url: i.opens, weekday: r.weekday)
            }
            data = Data(ICalendar.calendar(events, firstDay: moment.calendarDate, stamp: stamps.current, name: "Reflect").utf8)
        }
        if let out {
            guard FileManager.default.createFile(atPath: out, contents: data, attributes: [.posixPermissions: 0o600]) else {
                throw ValidationError("cannot write \(out)")
            }
        } else {
            Terminal.writeData(data)
        }
    }

    /// A stable, opaque tag of the person for event UIDs (the name itself stays out of calendars).
    static func userTag(_ user: String) -> String {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in user.utf8 { h = (h ^ UInt64(b)) &* 0x100_0000_01b3 }
        return String(h, radix: 16)
    }
}

extension NotificationVoice: ExpressibleByArgument {}

/// `reflect open reflect://…`: starts the flow a link names.
struct Open: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Open a reflect:// link: reflect://prepTonight (evening prep), reflect://reviewPrep (morning, after last night's marks), "
            + "reflect://needHelp (I Need Help), reflect://partsLetter (the weekly parts letter).",
        discussion: "Options after the link are those of `reflect run` (--answers, --format, --now, --db, --locale, …).")

    @Argument(help: "The link, e.g. reflect://needHelp.")
    var link: String

    @Argument(parsing: .allUnrecognized, help: "Options for the flow, as for `reflect run`.")
    var runOptions: [String] = []

    func run() throws {
        let target: DeepLink
        do { target = try DeepLink(url: link) } catch {
            Terminal.write("error: \(error.description) [\(error.code)]\n", to: .err)
            throw ExitCode(1)
        }
        let run = try Run.parse([target.flowID] + runOptions)
        if target == .reviewPrep { try Open.summary(run) }
        try run.run()
    }

    /// Last night's marks, before the morning (reviewPrep).
    static func summary(_ run: Run) throws {
        let stamps = try Timestamps(now: run.drive.now)
        let store = try run.storeOptions.open(.readOnly)
        let language: Language
        do { language = try run.contentOptions.library.language(for: run.locale) } catch { throw fail(error) }
        let model: TodayModel
        do { model = try CoachDay.today(store: store, user: run.storeOptions.user, clock: stamps.current, language: language) } catch {
            throw failStore(error)
        }
        guard let section = model.sections.first(where: { $0.id == .lastNightPrep }) else { return }
        if run.drive.format == .jsonl {
            struct Summary: Encodable {
                var event = "prep_summary"
                var label: String
                var marks: [TodayModel.MarkLine]
            }
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            Terminal.writeJSON(try encoder.encode(Summary(label: section.label, marks: section.marks)) + Data("\n".utf8))
        } else {
            print(section.label)
            if section.marks.isEmpty { print("  ·") }
            for m in section.marks { print("  \(m.mark == .done ? "✓" : m.mark == .partly ? "◐" : "–") \(m.text)") }
        }
    }
}
