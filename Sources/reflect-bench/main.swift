// reflect-bench: the host's hot work, as workloads that mirror the C
// anchors in bench/anchors (lua_host.c), so both can be measured in one
// run under callgrind: (Ir(N) − Ir(0)) / N instructions per item.
//
//   reflect-bench fresh N FLOW.lua   per session: a sandboxed LuaState, load the
//                                    flow, a coroutine, 6 resumes, close
//                                    (anchor: lua_host fresh_min N)
//   reflect-bench state N            per session: a sandboxed LuaState, close
//                                    (anchor: lua_host state N)
//   reflect-bench reuse N FLOW.lua   one state; per session a coroutine and
//                                    6 resumes (anchor: lua_host reuse N)
//   reflect-bench mem FLOW.lua       GCCOUNT and allocator bytes of fresh states
//   reflect-bench engine N CONTENT   N full sessions of reflection.negative through
//                                    the engine (7 prompts each), no storage
//   reflect-bench engine-open N CONTENT   only opening N such sessions
//   reflect-bench detect N SENTENCES TSV [LABELS]   label the first N lines with
//                                    the anchors' keywords and matching rule
//   reflect-bench detect-rules N SENTENCES CONTENT [LABELS]   label the first N
//                                    lines with the English locale's distortion
//                                    rules (confidence, negation, quotation)
//   reflect-bench safety N SENTENCES CONTENT   the safety gate over N lines
//   reflect-bench safety-sized N SENTENCES CONTENT PHRASES BYTES   the gate with
//                                    the English lists grown to PHRASES crisis
//                                    phrases (distinct filler phrases added), over
//                                    N texts of about BYTES bytes (lines joined)
//   reflect-bench write N DBPATH     N durable answer writes (the answer row
//                                    alone), one transaction each
//   reflect-bench session-write N DBPATH K none|index   N durable answer writes in
//                                    sessions of K text answers each; with `index`,
//                                    the related-entries index catches up after
//                                    each session, as `reflect run` does when it
//                                    stops (one transaction per session)
//   reflect-bench journal-write N DBPATH [HISTORY_DAYS]   N answers journalled as
//                                    `reflect run` does (StoreJournal: with step
//                                    and showed-up days, themes, achievements),
//                                    after HISTORY_DAYS days of earlier activity
//   reflect-bench livemem CONTENT    GCCOUNT of a session waiting at its 4th prompt
//   reflect-bench streak DBPATH [RUNS]   10 years of daily activity (3653 days
//                                    ending 2025-06-01, through the store's one
//                                    write path), then the streak figures
//                                    (current, longest, last 7 days) read from
//                                    the store: median wall time of RUNS (101)
//                                    (anchor: sqlite_bench streak, C host loop)
//   reflect-bench related N DBPATH [RUNS]   N journal entries (free-text answers,
//                                    one a day back from 2026-11-24, words drawn
//                                    with a fixed seed) imported once, then the
//                                    related-entries search (FTS5 bm25 + recency,
//                                    top 3) for a typical answer: median wall
//                                    time of RUNS (101)
//   reflect-bench noop               start and exit (startup baseline)
//   reflect-bench experiment-report N DBPATH   write N exposures (two sessions per
//                                    person, GrowthBook-assigned, 85% finished) once,
//                                    then time `reflect experiments report`'s work:
//                                    the SQL aggregation and the statistics
import Foundation
import LuaHost
import ReflectCore
import ReflectEngine
import ReflectStore
import ReflectStoreJournal

let answers: [LuaValue] = [
    "My manager criticised my report in front of the whole team",
    "embarrassed, 80",
    "I always mess things up and everyone noticed",
    "Only one slide had an error; the rest was praised",
    "One mistake does not define my work",
]

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("reflect-bench: \(message)\n".utf8))
    exit(1)
}

func flowSource(_ path: String) -> String {
    guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { fail("cannot read \(path)") }
    // flow.lua declares global functions; hand `flow` back to the host.
    return text + "\nreturn flow"
}

func loadFlow(_ lua: LuaState, _ source: String) throws -> LuaFunction {
    guard let f = try lua.call(lua.load(source, as: "flow.lua")).first?.functionValue else { fail("flow.lua returned no function") }
    return f
}

/// Calls `body` with each of the first `limit` lines of `text` (without
/// its newline), as the C anchors read theirs: a byte scan, no Unicode work.
func forEachLine(of text: String, limit: Int, _ body: (String) -> Void) {
    var text = text
    text.withUTF8 { bytes in
        var start = 0, count = 0
        while count < limit, start <= bytes.count {
            var end = start
            while end < bytes.count, bytes[end] != 10 { end += 1 }
            body(String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self))
            count += 1
            start = end + 1
        }
    }
}

func runSession(_ lua: LuaState, _ flow: LuaFunction, _ checksum: inout Int) throws {
    let co = try lua.makeCoroutine(flow)
    guard case .yielded(.one(.string(let q1))) = try lua.resumeInPlace(co, passing: "Alex") else { fail("no first question") }
    checksum += q1.utf8.count
    for (i, answer) in answers.enumerated() {
        switch try lua.resumeInPlace(co, passing: answer) {
        case .yielded(.one(.string(let q))) where i < 4: checksum += q.utf8.count
        // The one field the C host reads, read in place as it does.
        case .returned(let r) where i == 4: checksum += try lua.returnedValue(r, field: 5).stringValue?.utf8.count ?? 0
        default: fail("unexpected resume result at step \(i + 1)")
        }
    }
    lua.release(co)
}

/// `days` days of activity ending the day before 2026-11-22, as a daily
/// reflection leaves it (every step saved, the session completed): what
/// an answer's write reads back to award achievements. One transaction.
func writeHistory(_ store: Store, days: Int) throws {
    guard let last = CalendarDay("2026-11-21") else { fail("day") }
    var marks: [ActivityMark] = []
    for k in 0..<days {
        let day = last.adding(days: -k)
        for i in 0..<7 { marks += ActivityMark.answer(.text("An earlier answer"), flow: "reflection.negative", step: StepID("q\(i)") ?? "q", day: day) }
        marks.append(.completed(flow: "reflection.negative", day: day))
    }
    try store.markActivity(marks, user: "bench")
}

let args = CommandLine.arguments
guard args.count >= 2 else { fail("usage: reflect-bench fresh|state|reuse N [FLOW.lua] | mem FLOW.lua") }
let mode = args[1]
var checksum = 0
do {
    switch mode {
    case "fresh", "reuse", "state":
        guard args.count >= 3, let n = Int(args[2]) else { fail("\(mode) needs N") }
        let source = mode == "state" ? "" : flowSource(args.count > 3 ? args[3] : "flow.lua")
        let start = Date()
        if mode == "state" {
            for _ in 0..<n { try LuaState().close() }
        } else if mode == "fresh" {
            for _ in 0..<n {
                let lua = try LuaState()
                try runSession(lua, try loadFlow(lua, source), &checksum)
                lua.close()
            }
        } else {
            let lua = try LuaState()
            let flow = try loadFlow(lua, source)
            for _ in 0..<n { try runSession(lua, flow, &checksum) }
            lua.close()
        }
        let dt = Date().timeIntervalSince(start)
        print("mode=\(mode) sessions=\(n) checksum=\(checksum) loop=\(String(format: "%.3f", dt)) s")
    case "mem":
        let source = flowSource(args.count > 2 ? args[2] : "flow.lua")
        let lua = try LuaState()
        lua.collectGarbage()
        print("sandboxed state, fresh:            \(lua.gcCount) bytes GCCOUNT, \(lua.memoryInUse) bytes allocated")
        let flow = try loadFlow(lua, source)
        lua.collectGarbage()
        print("sandboxed state + flow.lua:        \(lua.gcCount) bytes GCCOUNT, \(lua.memoryInUse) bytes allocated")
        let co = try lua.makeCoroutine(flow)
        _ = try lua.resume(co, with: ["Alex"])
        for a in answers.prefix(4) { _ = try lua.resume(co, with: [a]) }
        lua.collectGarbage()
        print("+ one session suspended at Q5:     \(lua.gcCount) bytes GCCOUNT, \(lua.memoryInUse) bytes allocated")
        lua.close()
    case "noop":
        break
    case "engine", "engine-open":
        guard args.count >= 4, let n = Int(args[2]) else { fail("\(mode) N CONTENT") }
        let library = ContentLibrary(root: ContentRoot(URL(fileURLWithPath: args[3])))
        let language = try library.language(for: "en")
        let source = try library.catalog.source(for: "reflection.negative")
        let inputs: [AnswerInput] = [.number(7), .text("My manager criticised my report in front of the whole team"),
                                     .text("I always mess everything up"), .text("Last month's demo went really well"),
                                     .text("One slide had an error; the rest was praised"), .text("One mistake does not define my work"),
                                     .number(4)]
        let start = Date()
        for i in 0..<n {
            let session = try FlowSession.open(source, language: language, options: SessionOptions(sessionID: "bench-\(i)", seed: 1))
            if mode == "engine" {
                for input in inputs { checksum += try session.submit(input).count }
            }
        }
        print("mode=\(mode) sessions=\(n) events=\(checksum) loop=\(String(format: "%.3f", Date().timeIntervalSince(start))) s")
    case "detect":
        guard args.count >= 5, let n = Int(args[2]) else { fail("detect N SENTENCES TSV [LABELS]") }
        var priority: [String] = [], phrases: [String: [String]] = [:]
        for line in try String(contentsOfFile: args[4], encoding: .utf8).split(separator: "\n") {
            let parts = line.split(separator: "\t", maxSplits: 1).map(String.init)
            guard parts.count == 2 else { continue }
            if !priority.contains(parts[0]) { priority.append(parts[0]) }
            phrases[parts[0], default: []].append(parts[1])
        }
        let matcher = try PhraseMatcher(PhraseLexicon(priority: priority, phrases: phrases), mode: .wordBoundary)
        let text = try String(contentsOfFile: args[3], encoding: .utf8)
        var labels = ""
        var count = 0
        let start = Date()
        var sum = 0
        forEachLine(of: text, limit: n) { line in
            count += 1
            let label = matcher.match(line).map { priority[$0] } ?? "-"
            if args.count > 5 { labels += label + "\n" } else { sum += label.utf8.count }
        }
        checksum += sum
        let dt = Date().timeIntervalSince(start)
        if args.count > 5 { try labels.write(toFile: args[5], atomically: true, encoding: .utf8) }
        print("mode=detect texts=\(count) loop=\(String(format: "%.3f", dt)) s texts/s=\(Int(Double(count) / max(dt, 1e-9)))")
    case "detect-rules":
        guard args.count >= 5, let n = Int(args[2]) else { fail("detect-rules N SENTENCES CONTENT [LABELS]") }
        guard let detector = try ContentLibrary(root: ContentRoot(URL(fileURLWithPath: args[4]))).language(for: "en").detector else {
            fail("no English distortion rules in \(args[4])")
        }
        let text = try String(contentsOfFile: args[3], encoding: .utf8)
        var labels = ""
        var count = 0, sum = 0
        let start = Date()
        forEachLine(of: text, limit: n) { line in
            count += 1
            let d = detector.detection(line)
            if args.count > 5 { labels += d.type.rawValue + "\t" + String(format: "%.2f", d.confidence) + "\n" } else { sum += d.type.rawValue.utf8.count }
        }
        checksum += sum
        let dt = Date().timeIntervalSince(start)
        if args.count > 5 { try labels.write(toFile: args[5], atomically: true, encoding: .utf8) }
        print("mode=detect-rules texts=\(count) loop=\(String(format: "%.3f", dt)) s texts/s=\(Int(Double(count) / max(dt, 1e-9)))")
    case "safety":
        guard args.count >= 5, let n = Int(args[2]) else { fail("safety N SENTENCES CONTENT") }
        let gate = try ContentLibrary(root: ContentRoot(URL(fileURLWithPath: args[4]))).language(for: "en").safety
        let text = try String(contentsOfFile: args[3], encoding: .utf8)
        var count = 0, flagged = 0
        let start = Date()
        forEachLine(of: text, limit: n) { line in
            count += 1
            if case .crisis = gate.check(line) { flagged += 1 }
        }
        let dt = Date().timeIntervalSince(start)
        print("mode=safety texts=\(count) flagged=\(flagged) loop=\(String(format: "%.3f", dt)) s texts/s=\(Int(Double(count) / max(dt, 1e-9)))")
    case "safety-sized":
        guard args.count >= 7, let n = Int(args[2]), let phrases = Int(args[5]), let size = Int(args[6]) else {
            fail("safety-sized N SENTENCES CONTENT PHRASES BYTES")
        }
        guard var data = try ContentLibrary(root: ContentRoot(URL(fileURLWithPath: args[4]))).locale("en")?.safety else { fail("no English safety lists") }
        // Filler phrases that never occur in the sentences, built from a
        // few words so that they share prefixes the way real lists do.
        let words = ["quorble", "zint", "plom", "vark", "snee", "drub", "yelt", "fomp", "glish", "trave"]
        var have = data.phrases.values.reduce(0) { $0 + $1.count }
        var k = 0
        while have < phrases {
            data.phrases["crisis", default: []].append("\(words[k % 10]) \(words[(k / 10) % 10]) \(words[(k / 100) % 10]) \(k)")
            k += 1
            have += 1
        }
        let gate = try SafetyGate(data)
        let text = try String(contentsOfFile: args[3], encoding: .utf8)
        var texts: [String] = []
        var current = ""
        // The same 500 texts whatever N, so that building them cancels out of
        // (Ir(N) - Ir(0)) / N.
        forEachLine(of: text, limit: 500 * max(1, size / 40) + 1) { line in
            if texts.count >= 500 { return }
            current += current.isEmpty ? line : " " + line
            if current.utf8.count >= size {
                texts.append(String(current.utf8.prefix(size)) ?? current)
                current = ""
            }
        }
        guard !texts.isEmpty else { fail("no texts") }
        var flagged = 0
        for i in 0..<n where gate.check(texts[i % texts.count]) != .ok { flagged += 1 }
        print("mode=safety-sized phrases=\(have) bytes=\(size) texts=\(texts.count) flagged=\(flagged)")
    case "write":
        // The answer row alone, in its own durable transaction: what the C
        // anchor's one-row insert compares with.
        guard args.count >= 4, let n = Int(args[2]) else { fail("write N DBPATH") }
        let store = try Store(path: args[3])
        try store.beginSession(SessionRecord(id: "bench", flowID: "reflection.negative", flowVersion: 2, locale: "en", personality: nil,
                                             user: "bench", mood: .bad, seed: 0, clock: "2026-11-22T08:00:00Z", startedAt: "2026-11-22T08:00:00Z"))
        let value = AnswerValue.text(String(repeating: "My manager criticised my report in front of the team. ", count: 4))
        let start = Date()
        for i in 0..<n {
            try store.recordAnswer(AnswerRecord(sessionID: "bench", step: StepID("s\(i)") ?? "s", position: i, kind: .text,
                                                question: "What happened today that affected your mood?", value: value,
                                                answeredAt: "2026-11-22T08:00:00Z"))
        }
        print("mode=write rows=\(n) loop=\(String(format: "%.3f", Date().timeIntervalSince(start))) s")
    case "session-write":
        // The answers' writes with the related-entries index's catch-up
        // (`index`) or without (`none`): the difference per answer is what
        // indexing costs, amortised over a session of K answers.
        guard args.count >= 6, let n = Int(args[2]), let k = Int(args[4]), k > 0, ["none", "index"].contains(args[5]) else {
            fail("session-write N DBPATH K none|index")
        }
        let store = try Store(path: args[3])
        let value = AnswerValue.text(String(repeating: "My manager criticised my report in front of the team. ", count: 4))
        let start = Date()
        for i in 0..<n {
            let id = "bench-\(i / k)"
            if i % k == 0 {
                try store.beginSession(SessionRecord(id: id, flowID: "reflection.negative", flowVersion: 2, locale: "en", personality: nil,
                                                     user: "bench", mood: .bad, seed: 0, clock: "2026-11-22T08:00:00Z",
                                                     startedAt: "2026-11-22T08:00:00Z"))
            }
            try store.recordAnswer(AnswerRecord(sessionID: id, step: StepID("s\(i % k)") ?? "s", position: i % k, kind: .text,
                                                question: "What happened today that affected your mood?", value: value,
                                                answeredAt: "2026-11-22T08:00:00Z"))
            if i % k == k - 1, args[5] == "index" { try store.catchUpRelatedEntries() }
        }
        print("mode=session-write rows=\(n) per-session=\(k) \(args[5]) loop=\(String(format: "%.3f", Date().timeIntervalSince(start))) s")
    case "journal-history":
        // The 10-year history the journalled-answer row is measured on,
        // written once and copied for each measured run (bench/compare).
        guard args.count >= 4, let days = Int(args[3]) else { fail("journal-history DBPATH DAYS") }
        try writeHistory(try Store(path: args[2]), days: days)
        print("mode=journal-history days=\(days)")
    case "journal-write":
        // The engine's own write: StoreJournal.answered, as `reflect run`
        // journals each answer (with its step day, showed-up day, themes and
        // achievements), optionally after HISTORY_DAYS days of activity.
        guard args.count >= 4, let n = Int(args[2]) else { fail("journal-write N DBPATH [HISTORY_DAYS]") }
        let historyDays = args.count >= 5 ? Int(args[4]) ?? 0 : 0
        let store = try Store(path: args[3])
        if historyDays > 0 { try writeHistory(store, days: historyDays) }
        let day = "2026-11-22"
        try store.beginSession(SessionRecord(id: "bench", flowID: "reflection.negative", flowVersion: 2, locale: "en", personality: nil,
                                             user: "bench", mood: .bad, seed: 0, clock: day + "T08:00:00Z", startedAt: day + "T08:00:00Z"))
        let journal = StoreJournal(store: store, sessionID: "bench", day: day, timestamp: { day + "T08:00:00Z" })
        let value = AnswerValue.text(String(repeating: "My manager criticised my report in front of the team. ", count: 4))
        let start = Date()
        for i in 0..<n {
            let step = StepID("s\(i)") ?? "s"
            try journal.answered(RecordedAnswer(step: step, value: value), position: i,
                                 prompt: Prompt(session: "bench", step: step, index: i + 1, total: nil, kind: .text,
                                                text: "What happened today that affected your mood?"),
                                 outcome: AnswerOutcome())
        }
        print("mode=journal-write rows=\(n) history=\(historyDays) loop=\(String(format: "%.3f", Date().timeIntervalSince(start))) s")
    case "experiment-report":
        guard args.count >= 4, let n = Int(args[2]) else { fail("experiment-report N DBPATH") }
        let experiment = Experiment(key: "bench", variations: [ExperimentVariation(id: "control"), ExperimentVariation(id: "warm")])
        let store = try Store(path: args[3])
        if try store.experimentExposureCounts()["bench"] != n {
            var rng = SeededRandom(seed: 16)
            var sessions: [ExperimentSimulation.Session] = []
            sessions.reserveCapacity(n)
            for i in 0..<n {
                let user = "p\(i / 2)"
                let h = GrowthBookHash.hash(seed: experiment.seed, value: user, version: 2) ?? 0
                let arm = GrowthBookHash.chooseVariation(h, ranges: experiment.bucketRanges) ?? 0
                let pre = Int(rng.integer(in: 3...9))
                let post = rng.integer(in: 0...99) < 85 ? max(0, pre - Int(rng.integer(in: 0...3)) - arm) : nil
                sessions.append(ExperimentSimulation.Session(user: user, variation: experiment.variations[arm].id, pre: pre, post: post))
            }
            let setup = Date()
            try store.recordSimulated(sessions, experiment: "bench", at: "2026-11-24T08:00:00+01:00")
            FileHandle.standardError.write(Data("set-up: \(n) exposures in \(String(format: "%.1f", Date().timeIntervalSince(setup))) s\n".utf8))
        }
        let start = Date()
        let report = ExperimentReport(experiment: experiment, aggregates: try store.experimentAggregates("bench"))
        let dt = Date().timeIntervalSince(start)
        print("mode=experiment-report exposures=\(report.arms.reduce(0) { $0 + $1.sessions }) report=\(String(format: "%.3f", dt)) s")
    case "streak":
        guard args.count >= 3 else { fail("streak DBPATH [RUNS]") }
        let runs = args.count >= 4 ? Int(args[3]) ?? 101 : 101
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: args[2] + suffix) }
        let store = try Store(path: args[2])
        guard let today = CalendarDay("2025-06-01") else { fail("day") }
        var marks: [ActivityMark] = []
        for k in 0..<3653 {
            let day = today.adding(days: -k)
            marks += ActivityMark.answer(.text("x"), flow: "coach.morning", step: "identity", day: day)
            marks.append(.completed(flow: "coach.morning", day: day))
        }
        try store.markActivity(marks, user: "u1")
        var times: [Double] = []
        var figures = StreakFigures(current: 0, longest: 0, lastSevenDays: 0)
        for _ in 0..<runs {
            let start = DispatchTime.now().uptimeNanoseconds
            figures = try store.showedUpDays(user: "u1").figures(today: today)
            times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
        }
        times.sort()
        print("mode=streak days=3653 median=\(String(format: "%.3f", times[times.count / 2])) ms (streak \(figures.current), longest \(figures.longest))")
    case "related":
        guard args.count >= 4, let n = Int(args[2]), n > 0 else { fail("related N DBPATH [RUNS]") }
        let runs = args.count >= 5 ? Int(args[4]) ?? 101 : 101
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: args[3] + suffix) }
        let store = try Store(path: args[3])
        let words = RelatedBench.vocabulary
        var random = SeededRandom(seed: 21)
        guard let end = CalendarDay("2026-11-24") else { fail("day") }
        var sessions: [ExportedSession] = []
        for k in 0..<n {
            let day = end.adding(days: -(k + 1)).description
            let at = "\(day)T20:00:00+01:00"
            let count = Int(random.integer(in: 8...24))
            let text = (0..<count).map { _ in words[Int(random.integer(in: 0...Int64(words.count - 1)))] }.joined(separator: " ")
            let answer = ExportedAnswer(step: "note", position: 0, kind: "text", question: "Anything you want to note about today?",
                                        value: .text(text), state: .answer, answeredAt: at, safety: nil)
            sessions.append(ExportedSession(id: "bench-\(k)", flowID: "journal.check-in", flowVersion: 1, locale: "en", personality: nil,
                                            user: "default", mood: nil, seed: 1, clock: at, startedAt: at, completedAt: at,
                                            status: .completed, pre: nil, post: nil, answers: [answer], distortions: [], events: []))
        }
        _ = try store.importDocument(ExportDocument(exportedAt: "2026-11-24T09:00:00+01:00", sessions: sessions, moodEntries: []))
        let query = "I'm worried about the presentation tomorrow, my boss will see every mistake and the team will think I'm not good enough"
        var times: [Double] = [], cpu: [Double] = []
        var found: [RelatedEntry] = []
        func cpuNow() -> Double {
            var t = timespec()
            clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t)
            return Double(t.tv_sec) * 1e3 + Double(t.tv_nsec) / 1e6
        }
        for _ in 0..<runs {
            let start = DispatchTime.now().uptimeNanoseconds, startCPU = cpuNow()
            found = try store.relatedEntries(user: "default", to: query, now: "2026-11-24T09:00:00+01:00", excluding: nil)
            times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
            cpu.append(cpuNow() - startCPU)
        }
        times.sort()
        cpu.sort()
        // CPU time too: on a loaded machine the wall time counts waiting for a core.
        print("mode=related entries=\(n) median=\(String(format: "%.3f", times[times.count / 2])) ms "
              + "max=\(String(format: "%.3f", times[times.count - 1])) ms cpu-median=\(String(format: "%.3f", cpu[cpu.count / 2])) ms "
              + "(found \(found.count), best \(found.first?.day ?? "-"))")
    case "livemem":
        guard args.count >= 3 else { fail("livemem CONTENT") }
        let library = ContentLibrary(root: ContentRoot(URL(fileURLWithPath: args[2])))
        let session = try FlowSession.open(try library.catalog.source(for: "reflection.negative"), language: try library.language(for: "en"),
                                           options: SessionOptions(sessionID: "mem", seed: 1))
        for input: AnswerInput in [.number(7), .text("My manager criticised my report in front of the whole team"), .text("I always mess everything up")] {
            _ = try session.submit(input)
        }
        print("live session at \(session.current?.step.rawValue ?? "?"): \(session.memoryInUse) bytes GCCOUNT")
    default:
        fail("unknown mode \(mode)")
    }
} catch {
    fail("\(error)")
}

/// Words a journal's entries are drawn from for `related`: everyday
/// English, function words included (so the common-word rule is exercised),
/// some of them the query's.
enum RelatedBench {
    static let vocabulary: [String] = """
        the a and to of in I my was it that for on with at about today work meeting boss team presentation deadline \
        email project slides mistake sleep slept tired woke night early late walk run gym exercise friends friend sister \
        brother mum dad family dinner lunch breakfast coffee money rent bills budget worried anxious calm happy sad angry \
        grateful proud stressed good enough better worse think felt feel thought said told asked every never always \
        tomorrow yesterday weekend morning evening rain sun park train bus home kitchen garden book music film call \
        message phone doctor headache back pain appointment plan list step small tiny try again still maybe
        """.split(whereSeparator: { $0 == " " || $0 == "\n" }).map(String.init).filter { !$0.isEmpty && $0 != "\\" }
}
