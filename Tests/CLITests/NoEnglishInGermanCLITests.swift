import Foundation
import Testing
import ReflectCore
@testable import ReflectEngine

/// Every command a person reads, used in German with German answers: no
/// line carries an English text of `locales/en.yaml` that German
/// translates differently, and no raw locale key. (Authors' tools — check,
/// test, dev, detect, safety, locales, experiments — speak English by
/// design; JSON, CSV and calendar files are not localized.)
@Suite("No English and no raw key in a German person's commands", .hangGuard)
struct NoEnglishInGermanCLITests {
    let db = FileManager.default.temporaryDirectory.appendingPathComponent("reflect-german-\(UUID().uuidString).sqlite").path

    func reflect(_ args: [String], stdin: String = "") throws -> CLIRunner.Output {
        try CLIRunner.run(args + ["--db", db], stdin: stdin, in: repositoryRoot)
    }

    /// The English texts that must not be shown to a German person: each
    /// `en.yaml` string German translates differently, as the fragments
    /// between its placeholders that are long enough to be telling (a word
    /// of 6 characters or more, or a phrase). Fragments that are also part
    /// of the German text (a name, "Check-in") are no evidence.
    static func englishFragments() throws -> [(key: String, fragment: String)] {
        let library = try ContentLibrary(root: ContentRoot(repositoryRoot))
        let english = try #require(try library.locale("en")).strings
        let german = try #require(try library.locale("de")).strings
        let placeholder = /%(\d+\$)?@/
        var out: [(String, String)] = []
        for (key, text) in english {
            guard let de = german[key], de != text else { continue }
            for piece in text.split(separator: placeholder) {
                let fragment = piece.trimmingCharacters(in: .whitespacesAndNewlines.union(.punctuationCharacters))
                guard fragment.count >= 6, !de.contains(fragment) else { continue }
                out.append((key, fragment))
            }
        }
        return out
    }

    /// Whether `text` holds `fragment` as words: not inside a longer word
    /// (English "stress" is inside German "gestresst").
    static func containsWord(_ text: String, _ fragment: String) -> Bool {
        var rest = text[...]
        while let r = rest.range(of: fragment) {
            let before = rest[..<r.lowerBound].last, after = rest[r.upperBound...].first
            if !(before?.isLetter ?? false) && !(after?.isLetter ?? false) { return true }
            rest = rest[r.upperBound...]
        }
        return false
    }

    @Test("log, history, show, today, prep, progress, insights, letter, digest, moments, report, reminders, profile, flows, coach, delete, delete-all, import, resume")
    func germanPersonSeesGerman() throws {
        let de = ["--locale", "de"]
        var outputs: [(String, String)] = []
        func run(_ args: [String], stdin: String = "", status: Int32 = 0, db: Bool = true) throws {
            let out = db ? try reflect(args, stdin: stdin) : try CLIRunner.run(args, stdin: stdin, in: repositoryRoot)
            #expect(out.status == status, "reflect \(args.joined(separator: " ")): \(out.stderr)")
            outputs.append((args.joined(separator: " "), out.stdout + out.stderr))
        }
        try run(["resume"] + de, status: 1)
        // A German person's week.
        try run(["log", "bad", "--date", "2026-11-16", "--note", "Müde nach der Arbeit", "--now", "2026-11-19T10:00:00+01:00"] + de)
        try run(["log", "great", "--date", "2026-11-17", "--note", "Schwimmen im See", "--now", "2026-11-19T10:00:00+01:00"] + de)
        try run(["log", "good", "--date", "2026-11-17", "--now", "2026-11-19T10:00:00+01:00"] + de)
        try run(["run", "journal.check-in", "--answers", "-", "--now", "2026-11-18T21:00:00+01:00"] + de,
                stdin: "7\n6\n5\n\"7,5\"\n8\n\"Ein ruhiger Abend mit Ana\"\n{\"done\": true}\n")
        try run(["run", "coach.evening", "--answers", "-", "--now", "2026-11-19T21:00:00+01:00"] + de, stdin: """
            true
            "Der Spaziergang"
            "Nach der langen Besprechung"
            {"checklist": {"sticky_notes": "skip", "produce": "done", "water": "done", "breakfast": "partly"}}
            {"command": "skip"}
            {"done": true}

            """)
        try run(["run", "journal.moment", "--answers", "-", "--now", "2026-11-19T22:00:00+01:00"] + de,
                stdin: "\"check-in\"\n\"Ich will mich umbringen\"\n")
        let sessions = try reflect(["history"]).stdout.split(separator: "\n").dropFirst().prefix(3)
            .compactMap { $0.split(separator: " ").dropFirst(2).first.map(String.init) }
        #expect(sessions.count == 3, "\(sessions)")
        let now = ["--now", "2026-11-20T09:00:00+01:00"]
        try run(["history"] + de)
        for id in sessions { try run(["show", id] + de) }
        try run(["today"] + de + now)
        try run(["prep", "archive", "sticky_notes"] + de + now)
        try run(["prep", "hide", "water"] + de + now)
        try run(["prep", "mark", "produce", "partly"] + de + now)
        try run(["progress"] + de + now)
        try run(["insights", "--to", "2026-11-20"] + de)
        try run(["letter", "--week", "2026-11-18"] + de)
        try run(["digest", "--week", "2026-11-18"] + de)
        try run(["moments"] + de)
        try run(["report", "--weeks", "2"] + de + now)
        try run(["reminders"] + de)
        try run(["profile"] + de)
        try run(["coach", "context", "--format", "text"] + de + now)
        try run(["flows"] + de, db: false)
        let export = FileManager.default.temporaryDirectory.appendingPathComponent("reflect-german-\(UUID().uuidString).json").path
        defer { try? FileManager.default.removeItem(atPath: export) }
        #expect(try reflect(["export", "--out", export]).status == 0)
        try run(["import", export] + de)
        try run(["delete", sessions[0]] + de)
        try run(["delete-all"] + de, status: 1)

        let fragments = try Self.englishFragments()
        #expect(fragments.count > 300, "\(fragments.count)")
        let library = try ContentLibrary(root: ContentRoot(repositoryRoot))
        let keys = Set(try #require(try library.locale("en")).strings.keys)
        // Names a person types are not words: flow ids (coach.evening), file
        // paths, and the moods `reflect flows` lists as `--mood` takes them.
        let flowIDs = library.catalog.all().compactMap { try? $0.1.get().id }.sorted { $0.count > $1.count }
        for (command, shown) in outputs {
            #expect(!shown.isEmpty, "\(command) said nothing")
            var text = flowIDs.reduce(shown) { $0.replacingOccurrences(of: $1, with: "·") }
                .split(separator: " ", omittingEmptySubsequences: false).filter { !$0.contains("/") }.joined(separator: " ")
            if command.hasPrefix("flows") {
                text = Mood.allCases.reduce(text) { $0.replacingOccurrences(of: $1.rawValue, with: "·") }
            }
            let english = fragments.filter { Self.containsWord(text, $0.fragment) }.map { "\($0.key): “\($0.fragment)”" }
            #expect(english.isEmpty, "reflect \(command) shows English: \(english)\n\(text)")
            let raw = text.split(whereSeparator: { $0.isWhitespace || "()[],;:“”„\"'".contains($0) })
                .map { String($0).trimmingCharacters(in: .punctuationCharacters) }.filter(keys.contains)
            #expect(raw.isEmpty, "reflect \(command) shows raw keys: \(raw)\n\(text)")
        }
    }
}
