import Foundation
import ReflectCore
import Yams
import ReflectEngine

/// Transcript tests: YAML files next to the flows (`flows/reflection/negative.test.yaml`)
/// that drive a flow with answers and check what comes out. docs/authoring.md
/// describes the format; in short:
///
/// ```yaml
/// flow: reflection.negative
/// tests:
///   - name: overgeneralization is met with a counter-example
///     mood: bad                # optional: locale, region, now, seed, facts too
///     steps:
///       - prompt: pre          # the prompt shown now (step id)
///         answer: 7
///       - prompt: thought
///         contains: "My manager"   # text fragment(s); `text:` for the exact text
///         answer: "I always mess everything up"
///         distortion: overgeneralization   # events this answer produced
///       - done: { pre: 7, post: 4 }
/// ```
public struct TranscriptSuite: Sendable {
    public struct Result: Sendable, Equatable {
        public var file: String
        public var test: String
        /// Nil when the test passed.
        public var failure: String?
    }

    public let library: ContentLibrary

    public init(library: ContentLibrary) { self.library = library }

    /// Every `*.test.yaml` under `flows/`, sorted.
    public func discover() -> [URL] {
        guard let walker = FileManager.default.enumerator(at: library.root.flowsDirectory, includingPropertiesForKeys: nil) else { return [] }
        return walker.compactMap { $0 as? URL }.filter { $0.lastPathComponent.hasSuffix(".test.yaml") }.sorted { $0.path < $1.path }
    }

    public func run(_ url: URL) -> [Result] {
        let name = library.root.displayName(for: url)
        do {
            let text = try ContentText.read(url) { .invalidContent(file: name, line: $0, message: $1) }
            let doc = try YAMLDocument(text: text, file: name)
            var flow: String?
            var tests: [Node] = []
            for (key, keyNode, value) in try doc.mapping(doc.root, "a transcript test file") {
                switch key {
                case "flow": flow = try doc.string(value, "flow")
                case "tests":
                    guard let seq = value.sequence else { throw doc.fail(value, "tests must be a list") }
                    tests = Array(seq)
                default: throw doc.fail(keyNode, "unknown key '\(key)' (flow, tests)")
                }
            }
            guard let flow else { throw doc.fail(doc.root, "missing 'flow: <id>'") }
            return tests.map { runTest($0, flow: flow, doc: doc) }
        } catch let e as EngineError {
            return [Result(file: name, test: "(file)", failure: e.description)]
        } catch {
            return [Result(file: name, test: "(file)", failure: "\(error)")]
        }
    }

    private func runTest(_ node: Node, flow: String, doc: YAMLDocument) -> Result {
        var testName = "(unnamed)"
        do {
            var settings: [String: Node] = [:]
            var steps: [Node] = []
            for (key, keyNode, value) in try doc.mapping(node, "a test") {
                switch key {
                case "name": testName = try doc.string(value, "name")
                case "steps":
                    guard let seq = value.sequence else { throw doc.fail(value, "steps must be a list") }
                    steps = Array(seq)
                case "mood", "locale", "region", "now", "seed", "personality", "facts", "related": settings[key] = value
                default: throw doc.fail(keyNode, "unknown key '\(key)' (name, mood, locale, region, now, seed, personality, facts, related, steps)")
                }
            }
            let locale = try settings["locale"].map { try doc.string($0, "locale") } ?? "en"
            var options = SessionOptions(sessionID: "transcript", clock: FlowClock(iso8601: "2026-01-05T09:00:00+00:00") ?? .system())
            if let m = settings["mood"] {
                guard let mood = Mood(rawValue: try doc.string(m, "mood")) else { throw doc.fail(m, "unknown mood") }
                options.mood = mood
            }
            if let n = settings["now"] {
                guard let clock = FlowClock(iso8601: try doc.string(n, "now")) else { throw doc.fail(n, "now must be ISO-8601 with an offset") }
                options.clock = clock
            }
            if let s = settings["seed"] { options.seed = UInt64(max(try doc.int(s, "seed"), 0)) }
            if let r = settings["region"] { options.region = try doc.string(r, "region") }
            options.facts = try TranscriptFacts.make(settings["facts"], clock: options.clock, doc: doc)
            if let related = settings["related"] { options.relatedEntries = try TranscriptRelatedEntries.make(related, doc: doc) }
            let personality = try settings["personality"].map { try doc.string($0, "personality") }
            let language = try library.language(for: locale, personality: personality)
            let source = try library.catalog.source(for: flow, mood: options.mood)
            let session = try FlowSession.open(source, language: language, options: options)
            var last: [FlowEvent] = session.openingEvents
            for (i, step) in steps.enumerated() {
                let here = "\(doc.file):\(step.mark?.line ?? 0): step \(i + 1)"
                var pending: [(String, Node)] = []
                for (key, keyNode, value) in try doc.mapping(step, "a step") {
                    guard ["prompt", "text", "contains", "index", "total", "draft", "kind", "answer", "distortion", "probe",
                           "safety", "invalid", "done", "celebrations"].contains(key) else {
                        throw doc.fail(keyNode, "unknown key '\(key)' in a step")
                    }
                    pending.append((key, value))
                }
                let fields = Dictionary(pending, uniquingKeysWith: { a, _ in a })
                // Before the answer: the prompt standing now.
                if let p = fields["prompt"] {
                    let want = try doc.string(p, "prompt")
                    guard let prompt = session.current else {
                        return Result(file: doc.file, test: testName, failure: "\(here)\n    expected prompt '\(want)'\n    actual   the flow had finished")
                    }
                    if prompt.step.rawValue != want {
                        return Result(file: doc.file, test: testName, failure: "\(here)\n    expected prompt '\(want)'\n    actual   prompt '\(prompt.step)': \"\(prompt.text)\"")
                    }
                    if let t = fields["text"], case let want = try doc.string(t, "text"), prompt.text != want {
                        return Result(file: doc.file, test: testName, failure: "\(here)\n    expected prompt '\(prompt.step)' text: \"\(want)\"\n    actual   prompt '\(prompt.step)' text: \"\(prompt.text)\"")
                    }
                    if let c = fields["contains"] {
                        let fragments = c.sequence != nil ? try doc.strings(c, "contains") : [try doc.string(c, "contains")]
                        for f in fragments where !prompt.text.contains(f) {
                            return Result(file: doc.file, test: testName, failure: "\(here)\n    expected prompt '\(prompt.step)' to contain: \"\(f)\"\n    actual   text: \"\(prompt.text)\"")
                        }
                    }
                    for (key, actual) in [("index", prompt.index), ("total", prompt.total ?? -1)] {
                        if let n = fields[key], case let want = try doc.int(n, key), want != actual {
                            return Result(file: doc.file, test: testName, failure: "\(here)\n    expected \(key) \(want)\n    actual   \(key) \(actual)")
                        }
                    }
                    if let k = fields["kind"], case let want = try doc.string(k, "kind"), prompt.kind.rawValue != want {
                        return Result(file: doc.file, test: testName, failure: "\(here)\n    expected kind \(want)\n    actual   kind \(prompt.kind.rawValue)")
                    }
                    if let d = fields["draft"] {
                        let want = try TranscriptSuite.answer(d, doc)
                        let shape = prompt.shape
                        let expected = try? shape.validate(want).get()
                        if prompt.draft != expected {
                            return Result(file: doc.file, test: testName, failure: "\(here)\n    expected draft \(expected.map { "\($0)" } ?? "none")\n    actual   draft \(prompt.draft.map { "\($0)" } ?? "none")")
                        }
                    }
                }
                if let a = fields["answer"] {
                    guard session.current != nil else {
                        return Result(file: doc.file, test: testName, failure: "\(here)\n    cannot answer: the flow had finished")
                    }
                    last = try session.submit(try TranscriptSuite.answer(a, doc))
                }
                // After the answer: the events it produced.
                if let d = fields["distortion"] {
                    let want = try doc.string(d, "distortion")
                    let got = last.compactMap { if case .distortion(_, let t, _) = $0 { t.rawValue } else { nil } }
                    if !got.contains(want) {
                        return Result(file: doc.file, test: testName, failure: "\(here)\n    expected distortion \(want)\n    actual   \(got.isEmpty ? "no distortion event" : "distortion " + got.joined(separator: ", "))")
                    }
                }
                for (key, present) in [("probe", last.contains { if case .probe = $0 { true } else { false } })] {
                    if let n = fields[key], let want = n.bool, want != present {
                        return Result(file: doc.file, test: testName, failure: "\(here)\n    expected \(want ? "a" : "no") \(key) event\n    actual   \(present ? "a" : "no") \(key) event")
                    }
                }
                if let c = fields["celebrations"] {
                    // Exact, in order: "tier reason" each ("none reason" for a line
                    // or checkmark without a tier); [] for none.
                    let want = try doc.strings(c, "celebrations")
                    let got = last.compactMap { e -> String? in
                        if case .celebration(let f) = e { "\(f.tier?.rawValue ?? "none") \(f.reason.rawValue)" } else { nil }
                    }
                    if got != want {
                        return Result(file: doc.file, test: testName, failure: "\(here)\n    expected celebrations \(want)\n    actual   celebrations \(got)")
                    }
                }
                if let s = fields["safety"] {
                    let got = last.compactMap { if case .safety(let n) = $0 { n.category.rawValue } else { nil } }.first
                    let want: String? = s.bool == false ? nil : try doc.string(s, "safety")
                    if got != want {
                        return Result(file: doc.file, test: testName, failure: "\(here)\n    expected \(want.map { "safety \($0)" } ?? "no safety event")\n    actual   \(got.map { "safety \($0)" } ?? "no safety event")")
                    }
                }
                if let v = fields["invalid"] {
                    let want = try doc.string(v, "invalid")
                    let got = last.compactMap { if case .invalid(_, let code, _) = $0 { code } else { nil } }.first
                    if got != want {
                        return Result(file: doc.file, test: testName, failure: "\(here)\n    expected invalid \(want)\n    actual   \(got.map { "invalid \($0)" } ?? "the answer was taken")")
                    }
                }
                if let d = fields["done"] {
                    guard session.isFinished else {
                        return Result(file: doc.file, test: testName, failure: "\(here)\n    expected the flow to be done\n    actual   prompt '\(session.current?.step.rawValue ?? "?")'")
                    }
                    if d.mapping != nil {
                        let summary = session.summary
                        for (key, _, value) in try doc.mapping(d, "done") {
                            let actual: Int?
                            switch key {
                            case "pre": actual = summary.pre
                            case "post": actual = summary.post
                            case "delta": actual = summary.delta
                            default: throw doc.fail(value, "done takes pre, post, delta")
                            }
                            let want = try doc.int(value, "done.\(key)")
                            if actual != want {
                                return Result(file: doc.file, test: testName, failure: "\(here)\n    expected done \(key) \(want)\n    actual   done \(key) \(actual.map(String.init) ?? "none")")
                            }
                        }
                    }
                }
            }
            return Result(file: doc.file, test: testName, failure: nil)
        } catch let e as EngineError {
            return Result(file: doc.file, test: testName, failure: e.description)
        } catch {
            return Result(file: doc.file, test: testName, failure: "\(error)")
        }
    }

    /// A YAML answer, as the machine interface would read its JSON.
    static func answer(_ node: Node, _ doc: YAMLDocument) throws(EngineError) -> AnswerInput {
        func json(_ n: Node) throws(EngineError) -> Any {
            if let m = n.mapping {
                var out: [String: Any] = [:]
                for (k, v) in m { out[k.string ?? ""] = try json(v) }
                return out
            }
            if let s = n.sequence {
                var out: [Any] = []
                for v in s { out.append(try json(v)) }
                return out
            }
            if let b = n.bool, n.scalar?.style == .plain { return b }
            if let i = n.int, n.scalar?.style == .plain { return i }
            if let f = n.float, n.scalar?.style == .plain { return f }
            return n.string ?? ""
        }
        let value = try json(node)
        guard let data = try? JSONSerialization.data(withJSONObject: value, options: .fragmentsAllowed) else {
            throw doc.fail(node, "not an answer")
        }
        do { return try AnswerLine.parse(String(decoding: data, as: UTF8.self)) } catch { throw doc.fail(node, error.reason) }
    }
}
