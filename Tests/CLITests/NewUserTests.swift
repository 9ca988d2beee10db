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
            guard let r = line.range(of: "flows/") ?? line.range(of: "ファイル") else { return nil }
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
        #expect(out.stderr.contains("mood entries: 1,") && out.stderr.contains("cannot be undone"), "\(out.stderr)")
        #expect(out.stderr.contains("reflect delete-all --yes --db \(db)") && out.stderr.contains("reflect export"), "\(out.stderr)")
        #expect(!out.stderr.contains("Usage:"), "\(out.stderr)")
        let history = try CLIRunner.run(["history", "--db", db])
        #expect(history.stdout.contains("good"), "nothing was deleted: \(history.stdout)")
    }

    // MARK: item 12 (show) and item 13

    static let flowV1 = """
        return flow { id = "test.change", version = 1, run = function(s)
          s:choose { id = "pick", text = "Which one?", options = {
            { id = "walk", text = "A walk" }, { id = "call", text = "Call a friend" } } }
          s:checklist { id = "evening", text = "Tonight?", items = {
            { id = "water", text = "Drink water" }, { id = "bed", text = "Bed by ten" }, { id = "apple", text = "Eat an apple" } } }
          s:ask { id = "note", text = "Anything else?" }
        end }
        """

    static let flowV2 = """
        return flow { id = "test.change", version = 2, run = function(s)
          s:ask { id = "first", text = "A new first question?" }
          s:choose { id = "pick", text = "Which one?", options = {
            { id = "walk", text = "A walk" }, { id = "call", text = "Call a friend" } } }
          s:ask { id = "note", text = "Anything else?" }
        end }
        """

    func sessionIDs(_ db: String) throws -> [String] {
        try Store(path: db, access: .readOnly).recentSessions(user: "default").map(\.id)
    }

    @Test("item 12: reflect show gives the options' labels as shown and a checklist in the flow's order")
    func showLabels() throws {
        let content = try ContentFixture(["flows/test/change.lua": NewUserTests.flowV1])
        defer { content.remove() }
        let db = tempDB()
        let run = try CLIRunner.run(["run", "test.change", "--content", content.root.path, "--db", db],
                                    stdin: "call a friend\ndone, skip, partly\n:quit\n")
        #expect(run.status == 0, "\(run.stderr)")
        let id = try #require(try sessionIDs(db).first)
        let show = try CLIRunner.run(["show", id, "--db", db])
        #expect(show.stdout.contains("→ Call a friend"), "\(show.stdout)")
        #expect(show.stdout.contains("→ Drink water: done; Bed by ten: skipped; Eat an apple: partly"), "\(show.stdout)")
        // The labels travel with the export and come back with an import.
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("reflect-\(UUID().uuidString).json").path
        defer { try? FileManager.default.removeItem(atPath: file) }
        #expect(try CLIRunner.run(["export", "--out", file, "--db", db]).status == 0)
        let other = tempDB()
        #expect(try CLIRunner.run(["import", file, "--db", other]).status == 0)
        #expect(try CLIRunner.run(["show", id, "--db", other]).stdout.contains("→ Drink water: done; Bed by ten: skipped; Eat an apple: partly"))
    }

    @Test("item 13: after the flow changed, the terminal offers to start anew (in the person's language); the old answers stay readable")
    func flowChangedStartAnew() throws {
        let content = try ContentFixture(["flows/test/change.lua": NewUserTests.flowV1,
                                          "locales/de.yaml": try String(contentsOf: repositoryRoot.appendingPathComponent("locales/de.yaml"), encoding: .utf8)])
        defer { content.remove() }
        let db = tempDB()
        let args = ["run", "test.change", "--content", content.root.path, "--db", db]
        #expect(try CLIRunner.run(args, stdin: "call a friend\n:quit\n").status == 0)
        let old = try #require(try sessionIDs(db).first)
        try NewUserTests.flowV2.write(to: content.root.appendingPathComponent("flows/test/change.lua"), atomically: true, encoding: .utf8)

        // Declining changes nothing, and says where the answers are.
        let no = try CLIRunner.run(args + ["--locale", "de"], stdin: "n\n")
        #expect(no.status == 0, "\(no.stderr)")
        #expect(no.stdout.contains("Dieser Ablauf hat sich geändert") && no.stdout.contains("Neu beginnen?"), "\(no.stdout)")
        #expect(no.stdout.contains("reflect show \(old.prefix(8))"), "\(no.stdout)")
        #expect(!no.stdout.contains("A new first question?") && !no.stderr.contains("flow.changed"), "\(no.stdout)\n\(no.stderr)")
        #expect(try sessionIDs(db) == [old])

        // Yes: the old session is set aside and a new one starts.
        let yes = try CLIRunner.run(args, stdin: "\nA fresh start\n:quit\n")
        #expect(yes.status == 0, "\(yes.stderr)")
        #expect(yes.stdout.contains("This flow has changed") && yes.stdout.contains("A new first question?"), "\(yes.stdout)")
        #expect(try sessionIDs(db).count == 2)
        // The next run is not stuck: it offers the new session, not the old one.
        let next = try CLIRunner.run(args, stdin: "n\n:quit\n")
        #expect(!next.stdout.contains("has changed") && next.stdout.contains("Resume it?"), "\(next.stdout)")
        // The old answers are kept and readable.
        let show = try CLIRunner.run(["show", old, "--db", db])
        #expect(show.stdout.contains("set aside") && show.stdout.contains("→ Call a friend"), "\(show.stdout)")
        let resume = try CLIRunner.run(["resume", old, "--content", content.root.path, "--db", db])
        #expect(resume.status == 1 && resume.stderr.contains("reflect run test.change"), "\(resume.stderr)")
    }

    @Test("item 13: in JSONL a changed flow's session is set aside with a flow_changed event; --resume refuses instead")
    func flowChangedJSONL() throws {
        let content = try ContentFixture(["flows/test/change.lua": NewUserTests.flowV1])
        defer { content.remove() }
        let db = tempDB()
        let args = ["run", "test.change", "--content", content.root.path, "--db", db, "--answers", "-", "--format", "jsonl"]
        #expect(try CLIRunner.run(args, stdin: "{\"choose\": \"call\"}\n").status == 0)
        let old = try #require(try sessionIDs(db).first)
        try NewUserTests.flowV2.write(to: content.root.appendingPathComponent("flows/test/change.lua"), atomically: true, encoding: .utf8)

        let refused = try CLIRunner.run(args + ["--resume"], stdin: "")
        #expect(refused.status == 1)
        #expect(refused.events.first?["code"] as? String == "flow.changed", "\(refused.stdout)")
        #expect(try sessionIDs(db) == [old])

        let anew = try CLIRunner.run(args, stdin: "\"A fresh start\"\n")
        #expect(anew.status == 0, "\(anew.stderr)")
        let first = try #require(anew.events.first)
        #expect(first["event"] as? String == "flow_changed" && first["session"] as? String == old && first["set_aside"] as? Bool == true,
                "\(anew.stdout)")
        #expect(anew.events.dropFirst().first?["event"] as? String == "prompt")
        let export = try CLIRunner.run(["export", "--db", db])
        #expect(export.stdout.contains("\"set_aside_at\""), "\(export.stdout.prefix(400))")
    }

    // MARK: items 14 and 15 (translators)

    /// A copy of the repository's locales and flows to change freely.
    func contentCopy() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("reflect-translator-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        for sub in ["flows", "locales"] {
            try FileManager.default.copyItem(at: repositoryRoot.appendingPathComponent(sub), to: dir.appendingPathComponent(sub))
        }
        return dir
    }

    func lineNumber(of needle: String, in text: String) -> Int? {
        text.split(separator: "\n", omittingEmptySubsequences: false).firstIndex { $0.contains(needle) }.map { $0 + 1 }
    }

    @Test("item 14: an import is refused, naming file and line, for a lost %@, a PO for another language, and a broken or cut-off XLIFF")
    func importRefusals() throws {
        let dir = try contentCopy()
        defer { try? FileManager.default.removeItem(at: dir) }
        let content = ["--content", dir.path]
        let before = try String(contentsOf: dir.appendingPathComponent("locales/de.yaml"), encoding: .utf8)
        let po = dir.appendingPathComponent("de.po")
        #expect(try CLIRunner.run(["locales", "export", "--format", "po", "de", "--out", po.path] + content).status == 0)
        let exported = try String(contentsOf: po, encoding: .utf8)

        // A translation that lost its %@.
        let translated = "msgstr \"Welcher Gedanke kam dir bei „%@“ immer wieder?\""
        let line = try #require(lineNumber(of: translated, in: exported))
        try exported.replacingOccurrences(of: translated, with: "msgstr \"Welcher Gedanke kam dir immer wieder?\"")
            .write(to: po, atomically: true, encoding: .utf8)
        let lost = try CLIRunner.run(["locales", "import", po.path] + content)
        #expect(lost.status == 1)
        #expect(lost.stderr.contains("de.po:\(line):") && lost.stderr.contains("'reflection.negative.q2'") && lost.stderr.contains("lost %@"),
                "\(lost.stderr)")

        // A German PO imported as French.
        try exported.write(to: po, atomically: true, encoding: .utf8)
        let header = try #require(lineNumber(of: "\"Language: de\\n\"", in: exported))
        let other = try CLIRunner.run(["locales", "import", po.path, "--locale", "fr"] + content)
        #expect(other.status == 1)
        #expect(other.stderr.contains("de.po:\(header):") && other.stderr.contains("'de'") && other.stderr.contains("not 'fr'"), "\(other.stderr)")

        // A broken XLIFF: the real line, in words.
        let xlf = dir.appendingPathComponent("de.xlf")
        #expect(try CLIRunner.run(["locales", "export", "--format", "xliff", "de", "--out", xlf.path] + content).status == 0)
        let xml = try String(contentsOf: xlf, encoding: .utf8)
        var lines = xml.components(separatedBy: "\n")
        let target = try #require(lines.firstIndex { $0.contains("<target state=\"translated\">") })
        lines[target] = lines[target].replacingOccurrences(of: "</target>", with: "</targt>")
        try lines.joined(separator: "\n").write(to: xlf, atomically: true, encoding: .utf8)
        let broken = try CLIRunner.run(["locales", "import", xlf.path] + content)
        #expect(broken.status == 1)
        #expect(broken.stderr.contains("de.xlf:\(target + 1):") && broken.stderr.contains("closing tag"), "\(broken.stderr)")
        #expect(!broken.stderr.contains("NSXMLParserErrorDomain"), "\(broken.stderr)")
        // Cut off half-way: refused, not half imported.
        try String(xml.prefix(xml.count / 2)).write(to: xlf, atomically: true, encoding: .utf8)
        let cut = try CLIRunner.run(["locales", "import", xlf.path] + content)
        #expect(cut.status == 1 && cut.stderr.contains("de.xlf:"), "\(cut.stdout)\n\(cut.stderr)")

        // Nothing was written by any of them.
        #expect(try String(contentsOf: dir.appendingPathComponent("locales/de.yaml"), encoding: .utf8) == before)
    }

    @Test("item 15: a stale entry shows the English it was translated from; a never-confirmed one is unconfirmed; a new language starts with one command")
    func staleShowsWhatChanged() throws {
        let dir = try contentCopy()
        defer { try? FileManager.default.removeItem(at: dir) }
        let content = ["--content", dir.path]
        let old = "What happened today that affected your mood?"
        let new = "What happened today that changed how you feel?"
        // Confirming records the English the locks are taken from.
        #expect(try CLIRunner.run(["locales", "confirm", "de", "reflection.negative.q1"] + content).status == 0)
        let en = dir.appendingPathComponent("locales/en.yaml")
        try String(contentsOf: en, encoding: .utf8).replacingOccurrences(of: "\"\(old)\"", with: "\"\(new)\"")
            .write(to: en, atomically: true, encoding: .utf8)

        let status = try CLIRunner.run(["locales", "status", "de", "--verbose"] + content)
        #expect(status.stdout.contains("stale reflection.negative.q1:") && status.stdout.contains("was: \(old)")
                && status.stdout.contains("now: \(new)"), "\(status.stdout)")
        let po = try CLIRunner.run(["locales", "export", "--format", "po", "de"] + content)
        #expect(po.stdout.contains("#| msgid \"\(old)\"\nmsgctxt \"reflection.negative.q1\"\nmsgid \"\(new)\""), "\(po.stdout.prefix(2000))")
        let xliff = try CLIRunner.run(["locales", "export", "--format", "xliff", "de"] + content)
        #expect(xliff.stdout.contains("<note from=\"previous-source\">\(old)</note>"))

        // A translation typed by hand without a lock is unconfirmed, not "English changed".
        let de = dir.appendingPathComponent("locales/de.yaml")
        let text = try String(contentsOf: de, encoding: .utf8)
        let entry = try #require(text.split(separator: "\n").first { $0.hasPrefix("  intensity.hint:") })
        try text.replacingOccurrences(of: String(entry), with: "  intensity.hint: \"0 = gar nicht, 10 = so stark wie nur möglich\"")
            .write(to: de, atomically: true, encoding: .utf8)
        let after = try CLIRunner.run(["locales", "status", "de"] + content)
        #expect(after.stdout.contains("1 stale, 1 unconfirmed") && after.stdout.contains("unconfirmed: intensity.hint"), "\(after.stdout)")

        // A new language.
        let it = try CLIRunner.run(["locales", "new", "it", "--name", "Italiano"] + content)
        #expect(it.status == 0, "\(it.stderr)")
        let itStatus = try CLIRunner.run(["locales", "status", "it"] + content)
        #expect(itStatus.stdout.contains("it (locales/it.yaml): 0 translated"), "\(itStatus.stdout)\n\(itStatus.stderr)")
        let run = try CLIRunner.run(["run", "demo.check-in", "--locale", "it", "--db", tempDB()] + content, stdin: ":quit\n")
        #expect(run.status == 0 && run.stdout.contains("Quick check-in"), "\(run.stdout)\n\(run.stderr)")
        #expect(try CLIRunner.run(["locales", "new", "it", "--name", "Italiano"] + content).status == 1)
        #expect(try CLIRunner.run(["locales", "new", "Italian", "--name", "Italiano"] + content).status == 1)
    }
}
