import ArgumentParser
import Foundation
import ReflectCore
import ReflectStore

struct Log: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Log today's mood (or a given day's); logging again the same day edits the entry.")

    @Argument(help: "horrible, bad, average, good or great.")
    var mood: Mood

    @Option(help: "A short note.")
    var note: String?

    @Option(help: "The day, YYYY-MM-DD (default: today).")
    var date: String?

    @Option(help: "Injected clock, ISO-8601 with offset (default: now).")
    var now: String?

    @OptionGroup var storeOptions: StoreOptions

    func run() throws {
        let stamps = try Timestamps(now: now)
        let store = try storeOptions.open()
        let day = date ?? stamps.current.day
        do {
            let entry = try store.logMood(MoodLogRequest(user: storeOptions.user, day: day, mood: mood, note: note,
                                                         source: .log, at: stamps.stamp()))
            let edited = entry.createdAt != entry.updatedAt ? " (updated)" : ""
            print("\(entry.day): \(entry.mood)\(entry.note.map { " — \($0)" } ?? "")\(edited)")
        } catch {
            throw failStore(error)
        }
    }
}

struct History: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Recent sessions and mood entries.")

    @Option(help: "How many of each to show.")
    var limit: Int = 20

    @OptionGroup var storeOptions: StoreOptions

    func run() throws {
        let store = try storeOptions.open(.readOnly)
        do {
            let sessions = try store.recentSessions(user: storeOptions.user, limit: limit)
            print("Sessions")
            if sessions.isEmpty { print("  (none yet)") }
            for s in sessions {
                let shift = s.pre.flatMap { p in s.post.map { "\(p) → \($0)" } } ?? ""
                let status = s.status == .completed ? "completed" : "unfinished (\(try store.answerCount(s.id)) answered)"
                print("  \(s.startedAt.prefix(16).replacingOccurrences(of: "T", with: " "))  \(s.id.prefix(8))  "
                      + "\(s.flowID.padding(toLength: 22, withPad: " ", startingAt: 0))  \(status)  \(shift)")
            }
            let moods = try store.moodEntries(user: storeOptions.user, limit: limit)
            print("\nMood")
            if moods.isEmpty { print("  (none yet)") }
            for m in moods {
                print("  \(m.day)  \(m.mood.padding(toLength: 8, withPad: " ", startingAt: 0))\(m.note.map { "  \($0)" } ?? "")")
            }
        } catch {
            throw failStore(error)
        }
    }
}

struct Show: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "One session: each question as it was shown, each answer, the distortion, the intensity shift.")

    @Argument(help: "A session id or the start of one.")
    var session: String

    @OptionGroup var storeOptions: StoreOptions

    func run() throws {
        let store = try storeOptions.open(.readOnly)
        do {
            let d = try store.detail(try store.resolveSession(session))
            let s = d.session
            print("\(s.flowID) (version \(s.flowVersion)) · \(s.status == .completed ? "complete" : "unfinished") · "
                  + "started \(s.startedAt)\(s.completedAt.map { " · finished \($0)" } ?? "")")
            print("session \(s.id) · locale \(s.locale)\(s.mood.map { " · mood \($0)" } ?? "")")
            if let pre = s.pre, let post = s.post {
                print("intensity \(pre) → \(post) (\(post - pre > 0 ? "+" : "")\(post - pre))")
            }
            let distortions = Dictionary(d.distortions.map { ($0.step, $0.type) }, uniquingKeysWith: { a, _ in a })
            let probed = Set(d.events.filter { $0.kind == .probe }.map(\.step))
            print("")
            for (i, a) in d.answers.enumerated() {
                let draft = a.state == .draft ? " (draft)" : ""
                print("\(i + 1). \(a.question)\(draft)")
                let value = (try? JSONDecoder().decode(AnswerValue.self, from: Data(a.value.utf8))).map(ExportDocument.plainText) ?? a.value
                print("   → \(value)")
                if let type = distortions[a.step] { print("   distortion: \(type)") }
                if probed.contains(a.step) { print("   (a hint to be more specific was shown)") }
            }
            let safety = d.events.filter { $0.kind == .safety }
            for e in safety { print("safety: \(e.category ?? "?") at \(e.at)") }
        } catch {
            throw failStore(error)
        }
    }
}

struct Export: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Export everything (sessions, answers, mood entries) as JSON (re-importable) or CSV.")

    enum Format: String, ExpressibleByArgument { case json, csv }

    @Option(help: "json (schema: docs/export.md) or csv.")
    var format: Format = .json

    @Option(help: "Write to FILE instead of stdout.")
    var out: String?

    @OptionGroup var storeOptions: StoreOptions

    func run() throws {
        let store = try storeOptions.open(.readOnly)
        let doc: ExportDocument
        do { doc = try store.export(at: FlowClock.system().iso8601) } catch { throw failStore(error) }
        // Rows that could not be read are left out of the export and named
        // here (and in the JSON's `problems`); everything else is exported.
        for problem in doc.problems ?? [] {
            FileHandle.standardError.write(Data("warning: \(problem)\n".utf8))
        }
        let data: Data
        switch format {
        case .json:
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            data = try encoder.encode(doc) + Data("\n".utf8)
        case .csv:
            data = Data(doc.csv().utf8)
        }
        if let out {
            guard FileManager.default.createFile(atPath: out, contents: data, attributes: [.posixPermissions: 0o600]) else {
                throw ValidationError("cannot write \(out)")
            }
        } else {
            Terminal.writeData(data)
        }
    }
}

struct Import: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Import a JSON export. Everything is checked first and written in one transaction; what is already there is kept.")

    @Argument(help: "A file written by `reflect export --format json`.")
    var file: String

    @OptionGroup var storeOptions: StoreOptions

    func run() throws {
        guard let data = FileManager.default.contents(atPath: file) else { throw ValidationError("cannot read \(file)") }
        let store = try storeOptions.open()
        do {
            let report = try store.importDocument(try ExportDocument.decodeValidated(from: data))
            print("imported \(report.sessionsAdded) sessions and \(report.moodEntriesAdded) mood entries"
                  + " (already present: \(report.sessionsAlreadyPresent) sessions, \(report.moodEntriesAlreadyPresent) mood entries)")
        } catch {
            throw failStore(error)
        }
    }
}

struct DeleteAll: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "delete-all", abstract: "Delete every session and mood entry.")

    @Flag(help: "Confirm: this cannot be undone (export first if you want a copy).")
    var yes = false

    @OptionGroup var storeOptions: StoreOptions

    func run() throws {
        guard yes else { throw ValidationError("refusing to delete everything without --yes") }
        let store = try storeOptions.open()
        do { try store.deleteAll() } catch { throw failStore(error) }
        print("Deleted everything in \(store.path).")
    }
}
