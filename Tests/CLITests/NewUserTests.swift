import Foundation
import GRDB
import ReflectStore
import Testing

/// Issue 18: what new users hit, as they would see it.
@Suite("what new users hit", .hangGuard)
struct NewUserTests {
    func tempDB() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("reflect-db-\(UUID().uuidString)/reflect.sqlite").path
    }

    let checkIn = ["run", "demo.check-in", "--now", "2026-11-22T21:00:00+01:00"]

    // MARK: item 2

    @Test("item 2: the quick-start check-in never quotes a crisis answer back, at the terminal or in JSONL")
    func crisisNotQuoted() throws {
        let text = try CLIRunner.run(checkIn + ["--db", tempDB()], stdin: "8\nI want to kill myself\nn\n", in: repositoryRoot)
        #expect(text.stdout.contains("If a friend told you this"), "\(text.stdout)")
        #expect(!text.stdout.contains("told you \"I want"), "\(text.stdout)")
        let jsonl = try CLIRunner.run(checkIn + ["--db", tempDB(), "--answers", "-", "--format", "jsonl"],
                                      stdin: "8\n\"I want to kill myself\"\n", in: repositoryRoot)
        let prompts = jsonl.events.filter { $0["event"] as? String == "prompt" }.compactMap { $0["text"] as? String }
        #expect(prompts.count == 3 && !prompts.contains { $0.contains("kill") }, "\(prompts)")
    }

    // MARK: item 3

    @Test("item 3: after a crisis message the pause offer and its answer come before the next question")
    func pauseBeforeNextQuestion() throws {
        let out = try CLIRunner.run(checkIn + ["--db", tempDB()], stdin: "8\nI want to kill myself\nn\nBe kind to yourself\n",
                                    in: repositoryRoot)
        #expect(out.status == 0, "\(out.stderr)")
        let stdout = out.stdout
        let notice = try #require(stdout.range(of: "Would you like to pause here?"), "\(stdout)")
        let next = try #require(stdout.range(of: "If a friend told you"), "\(stdout)")
        #expect(notice.upperBound < next.lowerBound, "the next question came before the pause offer:\n\(stdout)")
        // Answering yes stops there: the next question is never shown.
        let paused = try CLIRunner.run(checkIn + ["--db", tempDB()], stdin: "8\nI want to kill myself\ny\n", in: repositoryRoot)
        #expect(paused.stdout.contains("reflect resume"), "\(paused.stdout)")
        #expect(!paused.stdout.contains("If a friend told you"), "\(paused.stdout)")
        // Events: the safety notice (with its pause offer) before any further prompt.
        let jsonl = try CLIRunner.run(checkIn + ["--db", tempDB(), "--answers", "-", "--format", "jsonl"],
                                      stdin: "8\n\"I want to kill myself\"\n", in: repositoryRoot)
        let kinds = jsonl.events.compactMap { $0["event"] as? String }
        #expect(kinds == ["prompt", "saved", "prompt", "saved", "safety", "prompt"], "\(kinds)")
        #expect((jsonl.events.first { $0["event"] as? String == "safety" }?["pause"] as? String)?.isEmpty == false)
    }

    func stored(_ db: String) throws -> [String: String] {
        let store = try Store(path: db, access: .readOnly)
        guard let id = try store.recentSessions(user: "default").first?.id else { return [:] }
        var out: [String: String] = [:]
        for a in try store.detail(id).answers where a.state == .answer {
            if case .text(let s) = a.value { out[a.step.rawValue] = s }
        }
        return out
    }

    // MARK: item 5

    @Test("item 5: an answer may start with ':' — only exact command words are commands, '::' types a colon, a mistyped command shows the help")
    func colonAnswers() throws {
        let db = tempDB()
        let out = try CLIRunner.run(checkIn + ["--db", db], stdin: "6\n:) lunch with my sister\n:qiut\n::quit is what I typed\n:QUIT\n",
                                    in: repositoryRoot)
        #expect(out.status == 0, "\(out.stderr)")
        let answers = try stored(db)
        #expect(answers["situation"] == ":) lunch with my sister")
        #expect(answers["friend"] == ":quit is what I typed")
        #expect(out.stdout.contains("type it twice (::)"), "the help says how to start with a colon: \(out.stdout)")
        #expect(out.stdout.contains("Stopped."), "\(out.stdout)")
    }

    // MARK: item 6

    static let english = ["Resuming where", "Welcome back", "Stopped.", "Paused.", "Commands:", "You have an unfinished"]

    @Test("item 6: the terminal's own lines (help, stopped, resume question, resuming) speak the session's language",
          arguments: ["de", "es", "fr", "ja", "ko", "pt-BR"])
    func terminalLinesTranslated(tag: String) throws {
        let db = tempDB()
        let first = try CLIRunner.run(checkIn + ["--db", db, "--locale", tag], stdin: "6\n:nope\n:quit\n", in: repositoryRoot)
        #expect(first.status == 0, "\(first.stderr)")
        let second = try CLIRunner.run(checkIn + ["--db", db, "--locale", tag], stdin: "\n:quit\n", in: repositoryRoot)
        #expect(second.status == 0, "\(second.stderr)")
        for text in [first.stdout, second.stdout] {
            for english in NewUserTests.english { #expect(!text.contains(english), "\(tag): '\(english)' in\n\(text)") }
            #expect(text.contains("reflect resume"), "\(text)")
        }
    }

    // MARK: item 8

    @Test("item 8: Ctrl-D and Ctrl-C at the terminal say the answers are saved and how to resume, with the --db and --content used")
    func interruptSaysHowToResume() throws {
        let content = try ContentFixture(["flows/test/two.lua": """
            return flow { id = "test.two", version = 1, run = function(s)
              s:ask { id = "one", text = "First question?" }
              s:ask { id = "two", text = "Second question?" }
            end }
            """])
        defer { content.remove() }
        for (key, status) in [("\u{04}", Int32(0)), ("\u{03}", Int32(130))] {
            let db = tempDB()
            let term = try PseudoTerminal(["run", "test.two", "--content", content.root.path, "--db", db])
            var at = try #require(term.waitFor("First question?"), "\(term.screen)")
            at = try #require(term.waitFor("> ", after: at), "\(term.screen)")
            term.type("kept\r")
            at = try #require(term.waitFor("Second question?", after: at), "\(term.screen)")
            at = try #require(term.waitFor("> ", after: at), "\(term.screen)")
            if key == "\u{03}" { term.interrupt() } else { term.type(key) }
            let end = term.finish()
            #expect(end == status, "\(term.screen)")
            let screen = term.screen
            #expect(screen.contains("Your answers are saved"), "\(screen)")
            #expect(screen.contains("reflect resume"), "\(screen)")
            // The line may be wrapped at the terminal's width (at spaces).
            let flat = screen.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
            #expect(flat.contains("--db \(db)") && flat.contains("--content \(content.root.path)"), "\(screen)")
            #expect(try stored(db)["one"] == "kept")
        }
    }

    // MARK: item 7

    @Test("item 7: full-width digits answer in Japanese, a choice's label chooses it, an optional question says how to skip")
    func typedNumbersAndLabels() throws {
        let db = tempDB()
        let ja = try CLIRunner.run(checkIn + ["--db", db, "--locale", "ja"], stdin: "７\n:quit\n", in: repositoryRoot)
        #expect(ja.status == 0, "\(ja.stderr)")
        #expect(!ja.stdout.contains("↳"), "７ was refused: \(ja.stdout)")
        let store = try Store(path: db, access: .readOnly)
        let id = try #require(try store.recentSessions(user: "default").first?.id)
        #expect(try store.detail(id).answers.first?.value == .integer(7))

        let content = try ContentFixture(["flows/test/pick.lua": """
            return flow { id = "test.pick", version = 1, run = function(s)
              local one = s:choose { id = "one", text = "Which one?", options = {
                { id = "walk", text = "A walk" }, { id = "call", text = "Call a friend" } } }
              local many = s:choose_many { id = "many", text = "Which ones?", options = {
                { id = "tea", text = "Tea" }, { id = "nap", text = "A nap" }, { id = "music", text = "Música" } } }
              local extra = s:ask { id = "extra", text = "Anything else?", required = false }
              s:message { id = "bye", text = "picked " .. one .. " and " .. table.concat(many, "+") }
            end }
            """])
        defer { content.remove() }
        let out = try CLIRunner.run(["run", "test.pick", "--content", content.root.path, "--db", tempDB()],
                                    stdin: "call a friend\ntea, musica\n\n\n")
        #expect(out.stdout.contains("picked call and tea+music"), "\(out.stdout)")
        #expect(out.stdout.contains("(optional: type :skip to leave it out)"), "\(out.stdout)")
    }

    @Test("item 8: reflect flows aligns its columns by display width for CJK titles")
    func flowsAligned() throws {
        let out = try CLIRunner.run(["flows", "--locale", "ja"], in: repositoryRoot)
        #expect(out.status == 0, "\(out.stderr)")
        let lines = out.stdout.split(separator: "\n").map(String.init).filter { !$0.isEmpty }
        #expect(lines.count >= 4)
        // The FILE column starts at the same screen column on every line.
        let columns = lines.compactMap { line -> Int? in
            guard let r = line.range(of: "flows/") ?? line.range(of: "FILE") else { return nil }
            return line[..<r.lowerBound].reduce(0) { w, ch in
                w + (ch.unicodeScalars.first.map { (0x3000...0x9FFF).contains($0.value) || (0xAC00...0xD7A3).contains($0.value) || (0xFF00...0xFF60).contains($0.value) } == true ? 2 : 1)
            }
        }
        #expect(columns.count == lines.count && Set(columns).count == 1, "\(out.stdout)")
    }

    @Test("item 8: at a terminal, long lines wrap at word boundaries to its width")
    func wrapsAtTerminalWidth() throws {
        let content = try ContentFixture(["flows/test/long.lua": """
            return flow { id = "test.long", version = 1, run = function(s)
              s:ask { id = "one", text = "When you think back over the whole of this week, which small moment stayed with you longest, and what made it matter?" }
            end }
            """])
        defer { content.remove() }
        let term = try PseudoTerminal(["run", "test.long", "--content", content.root.path, "--db", tempDB()], columns: 40)
        let at = try #require(term.waitFor("> "), "\(term.screen)")
        term.type(":quit\r")
        _ = term.finish()
        let screen = String(term.screen[..<at]).replacingOccurrences(of: "\r", with: "")
        let lines = screen.split(separator: "\n").map(String.init)
        for line in lines { #expect(line.count <= 40, "\(line)") }
        // Every word is kept whole, in order: joining the lines gives the question back.
        let question = "When you think back over the whole of this week, which small moment stayed with you longest, and what made it matter?"
        #expect(lines.map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ").contains(question), "\(screen)")
        #expect(lines.filter { $0.contains("week") || $0.contains("moment") || $0.contains("matter") || $0.contains("longest") }.count >= 2)
    }

    // MARK: item 9

    @Test("item 9: common locale spellings are accepted; an unknown locale is refused with the available ones",
          arguments: [("de_DE", "Kurzer Check-in"), ("DE", "Kurzer Check-in"), ("pt_BR", "rápido"), ("pt", "rápido"), ("ja_JP.UTF-8", "チェックイン")])
    func localeSpellings(typed: String, expected: String) throws {
        let out = try CLIRunner.run(checkIn + ["--db", tempDB(), "--locale", typed], stdin: ":quit\n", in: repositoryRoot)
        #expect(out.status == 0, "\(typed): \(out.stderr)")
        #expect(out.stdout.localizedCaseInsensitiveContains(expected), "\(typed): \(out.stdout)")
    }

    @Test("item 9: --locale xx or jp is an error listing the available locales, not English", arguments: ["xx", "jp", "klingon"])
    func unknownLocale(typed: String) throws {
        let out = try CLIRunner.run(checkIn + ["--db", tempDB(), "--locale", typed], stdin: "6\n", in: repositoryRoot)
        #expect(out.status == 1)
        #expect(out.stderr.contains("no locale '\(typed)'") && out.stderr.contains("de, en, es, fr, ja, ko, pt-BR"), "\(out.stderr)")
        #expect(!out.stdout.contains("How strong"), "\(out.stdout)")
    }

    // MARK: item 10

    @Test("item 10: outside a content directory, run and check say so and how to point at one")
    func noContentDirectory() throws {
        let empty = FileManager.default.temporaryDirectory.appendingPathComponent("reflect-empty-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: empty) }
        for args in [["run", "demo.check-in", "--content", empty.path], ["check", "--content", empty.path], ["flows", "--content", empty.path]] {
            let out = try CLIRunner.run(args + ["--db", tempDB()].filter { _ in args[0] == "run" }, in: empty)
            #expect(out.status == 1, "\(args)")
            #expect(out.stderr.contains("no content directory found") && out.stderr.contains("--content"), "\(args): \(out.stderr)")
            #expect(!out.stderr.contains("safety section") && !out.stderr.contains("YAML"), "\(out.stderr)")
        }
        let env = try CLIRunner.run(["check"], in: empty, environment: ["REFLECT_CONTENT": empty.path])
        #expect(env.status == 1 && env.stderr.contains("REFLECT_CONTENT="), "\(env.stderr)")
    }

    // MARK: item 11

    @Test("item 11: reflect check FLOW checks that flow alone; one problem is reported once, with the severity locales check gives it")
    func checkOneFlowOnce() throws {
        let content = try ContentFixture([
            "flows/t/typo.lua": """
                return flow {
                  id = "t.typo",
                  version = 1,
                  run = function(s)
                    s:ask { id = "one", text = "demo.checkin.title" }
                    s:ask { id = "two", text = "no.such.key" }
                    s:ask { id = "three", text = "What next?" }
                  end,
                }
                """,
            "flows/t/field.lua": """
                return flow {
                  id = "t.field",
                  version = 1,
                  titel = "demo.checkin.title",
                  run = function(s) s:ask { id = "one", text = "Fine?" } end,
                }
                """,
            "locales/de.yaml": "locale: de\nname: Deutsch\nmatching: substring\nstrings:\n  intensity.pre: \"Wie stark?\"\n",
            "locales/fr.yaml": "locale: fr\nname: Français\nmatching: substring\nstrings:\n  demo.checkin.title: \"Check-in %@\"\n",
        ])
        defer { content.remove() }
        let dir = ["--content", content.root.path]
        func lines(_ text: String) -> [String] { text.split(separator: "\n").map(String.init).filter { !$0.hasPrefix("    fix:") } }

        let one = try CLIRunner.run(["check", "t.typo"] + dir)
        #expect(one.status == 1, "\(one.stderr)")
        let found = lines(one.stdout)
        #expect(found.contains("flows/t/typo.lua:6: error R005: ask 'two' text: unknown locale key 'no.such.key' (not in locales/en.yaml)"), "\(found)")
        // The other flow's error is not this check's business.
        #expect(!one.stdout.contains("field.lua"), "\(one.stdout)")
        // Steps after the error are that error again, not also "never reached".
        #expect(!one.stdout.contains("R009"), "\(one.stdout)")
        // The key missing in de: once, at the flow's line, not also L005 at de.yaml.
        #expect(found.filter { $0.contains("demo.checkin.title") && $0.contains("de") && !$0.contains("fr") }
                == ["flows/t/typo.lua:5: warning R006: uses 'demo.checkin.title', which is not translated in de (missing)"], "\(found)")
        // The broken fr entry: an error at fr.yaml, as locales check says, not a warning at the flow.
        #expect(found.filter { $0.contains("(fr)") || $0.contains(" in fr ") }
                == ["locales/fr.yaml:5: error L002: 'demo.checkin.title' (fr): placeholders %1$@ differ from the English (none)"], "\(found)")
        let locales = try CLIRunner.run(["locales", "check"] + dir)
        #expect(lines(locales.stdout).contains("locales/fr.yaml:5: error L002: 'demo.checkin.title' (fr): placeholders %1$@ differ from the English (none)"))
        #expect(lines(locales.stdout).contains("locales/de.yaml: warning L005: 'demo.checkin.title' (de): not translated yet (English is shown)"))

        // By path, the other flow; its misspelled field is named on its own line.
        let path = try CLIRunner.run(["check", content.root.appendingPathComponent("flows/t/field.lua").path] + dir)
        #expect(path.status == 1)
        #expect(lines(path.stdout).first == "flows/t/field.lua:4: error R011: flow 't.field': unknown field 'titel' (did you mean 'title'?); the fields are id, version, title, moods, total, run", "\(path.stdout)")
        #expect(!path.stdout.contains("typo.lua"), "\(path.stdout)")

        // The whole check: both flows, and no line twice.
        let all = try CLIRunner.run(["check"] + dir)
        let allLines = lines(all.stdout).dropLast()
        #expect(allLines.contains { $0.hasPrefix("flows/t/field.lua:4: error R011") } && allLines.contains { $0.hasPrefix("flows/t/typo.lua:6: error R005") })
        #expect(Set(allLines).count == allLines.count, "\(all.stdout)")
        #expect(allLines.filter { $0.contains("'demo.checkin.title'") && $0.contains("de") && !$0.contains("fr") }.count == 1, "\(all.stdout)")

        let typo = try CLIRunner.run(["check", "t.typ"] + dir)
        #expect(typo.status == 1 && typo.stderr.contains("did you mean 't.typo'?"), "\(typo.stderr)")
    }

    // MARK: item 12

    @Test("item 12: reflect log --date refuses an impossible date and a future day (by the person's logical day), saying what is expected")
    func logDates() throws {
        let db = tempDB()
        let now = ["--now", "2026-11-24T10:00:00+01:00", "--db", db]
        let bad = try CLIRunner.run(["log", "good", "--date", "2026-13-45"] + now)
        #expect(bad.status == 1)
        #expect(bad.stderr.contains("'2026-13-45' is not a valid date") && bad.stderr.contains("YYYY-MM-DD"), "\(bad.stderr)")
        #expect(!bad.stderr.contains("import"), "\(bad.stderr)")
        let future = try CLIRunner.run(["log", "good", "--date", "2026-11-25"] + now)
        #expect(future.status == 1 && future.stderr.contains("is in the future") && future.stderr.contains("2026-11-24"), "\(future.stderr)")
        // Before the day boundary (05:00 by default) it is still yesterday: today's date is the future.
        let early = try CLIRunner.run(["log", "good", "--date", "2026-11-24", "--now", "2026-11-24T03:00:00+01:00", "--db", db])
        #expect(early.status == 1 && early.stderr.contains("2026-11-23"), "\(early.stderr)")
        let today = try CLIRunner.run(["log", "good", "--date", "2026-11-24"] + now)
        #expect(today.status == 0 && today.stdout.contains("2026-11-24: good"), "\(today.stderr)")
        let past = try CLIRunner.run(["log", "bad", "--date", "2026-02-28"] + now)
        #expect(past.status == 0, "\(past.stderr)")
    }

    @Test("item 12: importing a CSV export says CSV is for reading and import takes the JSON export; export --help names a page that exists")
    func importCSV() throws {
        let db = tempDB()
        _ = try CLIRunner.run(["log", "good", "--db", db])
        let csv = FileManager.default.temporaryDirectory.appendingPathComponent("reflect-\(UUID().uuidString).csv").path
        defer { try? FileManager.default.removeItem(atPath: csv) }
        #expect(try CLIRunner.run(["export", "--format", "csv", "--out", csv, "--db", db]).status == 0)
        let out = try CLIRunner.run(["import", csv, "--db", tempDB()])
        #expect(out.status == 1)
        #expect(out.stderr.contains("CSV export") && out.stderr.contains("for reading") && out.stderr.contains("--format json"), "\(out.stderr)")
        #expect(!out.stderr.contains("not valid JSON"), "\(out.stderr)")
        let help = try CLIRunner.run(["export", "--help"])
        let pages = help.stdout.split(whereSeparator: { " (),;".contains($0) || $0.isNewline }).filter { $0.hasPrefix("docs/") && $0.hasSuffix(".md") }
        #expect(!pages.isEmpty, "\(help.stdout)")
        for page in pages {
            #expect(FileManager.default.fileExists(atPath: repositoryRoot.appendingPathComponent(String(page)).path), "\(page)")
        }
    }

    @Test("item 12: delete-all without --yes deletes nothing and says what it would delete and how to confirm")
    func deleteAllExplains() throws {
        let db = tempDB()
        _ = try CLIRunner.run(["log", "good", "--db", db])
        let out = try CLIRunner.run(["delete-all", "--db", db])
        #expect(out.status == 1)
        #expect(out.stderr.contains("1 mood entry") && out.stderr.contains("cannot be undone"), "\(out.stderr)")
        #expect(out.stderr.contains("reflect delete-all --yes --db \(db)") && out.stderr.contains("reflect export"), "\(out.stderr)")
        #expect(!out.stderr.contains("Usage:"), "\(out.stderr)")
        let history = try CLIRunner.run(["history", "--db", db])
        #expect(history.stdout.contains("good"), "nothing was deleted: \(history.stdout)")
    }
}
