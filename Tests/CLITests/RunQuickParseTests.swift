import ArgumentParser
import Foundation
import Testing
import ReflectCore
@testable import reflect

/// Issue 20: `reflect run`'s plain command lines are read without
/// ArgumentParser's reflection (``RunQuickParse``). Whenever the quick
/// reader accepts a command line, ArgumentParser must accept it with the
/// very same values; whatever it declines goes to ArgumentParser.
@Suite("reflect run's quick argument reader", .hangGuard)
struct RunQuickParseTests {
    /// Every value a run reads from its arguments, as text.
    static func fields(_ r: Run) -> [String] {
        [r.flow, "\(r.contentOptions.content as Any)", "\(r.storeOptions.db as Any)", r.storeOptions.user,
         "\(r.drive.answers as Any)", r.drive.format.rawValue, "\(r.drive.now as Any)",
         "\(r.generation.generator?.rawValue as Any)", "\(r.mood?.rawValue as Any)", r.locale, "\(r.seed)",
         "\(r.personality as Any)", "\(r.region as Any)", "\(r.resume)", "\(r.startNew)", "\(r.noCelebrations)"]
    }

    @Test("the benchmark's and the documentation's command lines take the quick path, with ArgumentParser's values")
    func usualLines() throws {
        let lines: [[String]] = [
            ["reflection", "--mood", "bad", "--locale", "en", "--content", "/c", "--db", "/d.db", "--new", "--answers", "a.jsonl",
             "--format", "jsonl"],
            ["reflection.negative"],
            ["flows/demo/x.lua", "--seed=7", "--now", "2026-11-22T08:30:00+01:00", "--user", "sam", "--resume"],
            ["--locale=pt-BR", "coach.morning", "--generator", "template", "--personality", "zen", "--region", "BR",
             "--no-celebrations"],
        ]
        for line in lines {
            let quick = try #require(RunQuickParse.parse(line), "\(line)")
            #expect(RunQuickParseTests.fields(quick) == RunQuickParseTests.fields(try Run.parse(line)), "\(line)")
        }
    }

    @Test("the quick reader knows exactly Run's options (a new option must be added to it)")
    func vocabulary() throws {
        let help = Run.helpMessage(columns: 400)
        let regex = try NSRegularExpression(pattern: "^\\s+(?:-[a-z], )?--([a-z][a-z-]*)", options: [.anchorsMatchLines])
        var names = Set<String>()
        for m in regex.matches(in: help, range: NSRange(help.startIndex..., in: help)) {
            if let r = Range(m.range(at: 1), in: help) { names.insert(String(help[r])) }
        }
        names.remove("help")
        #expect(!names.isEmpty)
        #expect(names == RunQuickParse.names, "Run's options per its help: \(names.sorted())")
    }

    /// Random command lines from Run's vocabulary and from things it must
    /// decline (help, short options, `--`, repeats, missing or dashed
    /// values, unknown values): each accepted line parses the same with
    /// ArgumentParser.
    @Test("on 6,000 random command lines, every line the quick reader accepts parses the same with ArgumentParser")
    func randomLines() throws {
        var rng = SystemRandomNumberGenerator()
        let valued = ["--content", "--db", "--user", "--answers", "--format", "--now", "--generator", "--mood", "--locale", "--seed",
                      "--personality", "--region"]
        let flags = ["--resume", "--new", "--no-celebrations"]
        let odd = ["-h", "--help", "--", "-", "--mood=", "--seed=-1", "--nope", "-locale", "--new=true", "help", "--locale=", "--format=xml"]
        let values = ["en", "de", "pt-BR", "bad", "great", "sad", "jsonl", "text", "openai", "none", "template", "7", "0", "18446744073709551615",
                      "18446744073709551616", "+3", "-2", "x y", "", "reflection", "a=b", "2026-11-22T08:30:00+01:00", "-", "--new", "日本"]
        var accepted = 0
        for _ in 0..<6_000 {
            var line: [String] = []
            for _ in 0..<Int.random(in: 0...7, using: &rng) {
                switch Int.random(in: 0..<10, using: &rng) {
                case 0..<5:
                    let name = valued.randomElement(using: &rng) ?? "--locale"
                    let value = values.randomElement(using: &rng) ?? "en"
                    if Bool.random(using: &rng) { line += [name, value] } else { line.append("\(name)=\(value)") }
                case 5, 6: line.append(flags.randomElement(using: &rng) ?? "--new")
                case 7: line.append(odd.randomElement(using: &rng) ?? "--")
                default: line.append(values.randomElement(using: &rng) ?? "reflection")
                }
            }
            if Int.random(in: 0..<4, using: &rng) != 0 { line.insert("reflection", at: Int.random(in: 0...line.count, using: &rng)) }
            guard let quick = RunQuickParse.parse(line) else { continue }
            accepted += 1
            let full: Run
            do { full = try Run.parse(line) } catch {
                Issue.record("quick reader accepted \(line), ArgumentParser refuses: \(Run.message(for: error))")
                continue
            }
            #expect(RunQuickParseTests.fields(quick) == RunQuickParseTests.fields(full), "\(line)")
        }
        #expect(accepted > 300, "the random lines exercise the quick path (\(accepted) accepted)")
    }

    @Test("a run's day is written as String(format: \"%04d-%02d-%02d\") writes it")
    func zeroPadded() {
        var rng = SystemRandomNumberGenerator()
        let fixed = [0, 1, 9, 10, 99, 100, 999, 1000, 9999, 10000, -1, -9, -10, -999, -1000, Int(Int32.max), Int(Int32.min) + 1]
        for v in fixed + (0..<2000).map({ _ in Int.random(in: -100_000...100_000, using: &rng) }) {
            for width in [2, 4] {
                #expect(FlowClock.zeroPadded(v, width) == String(format: "%0\(width)d", v), "\(v) width \(width)")
            }
        }
    }
}
