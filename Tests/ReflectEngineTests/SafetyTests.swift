import Foundation
import Testing
import Yams
import ReflectCore
import ReflectStore
@testable import ReflectEngine

/// Issue 6: the safety gate and the output filter, with the repository's
/// locale data, and their place in every flow.
@Suite("Safety")
struct SafetyTests {
    static let locales = ["en", "de", "es", "fr", "ja", "ko", "pt-BR"]

    @Test("every crisis fixture is flagged with its category and no benign fixture is, in every locale", arguments: locales)
    func fixtures(tag: String) throws {
        let url = repositoryRoot.appendingPathComponent("Tests/Fixtures/safety/\(tag).yaml")
        let yaml = try #require(try Yams.load(yaml: String(contentsOf: url, encoding: .utf8)) as? [String: Any])
        let crisis = try #require(yaml["crisis"] as? [[String: String]])
        let benign = try #require(yaml["benign"] as? [String])
        #expect(crisis.count >= 60 && benign.count >= 60, "\(tag): \(crisis.count) crisis, \(benign.count) benign")
        let gate = try ContentLibrary(root: ContentRoot(repositoryRoot)).language(for: tag).safety
        var categories = Set<String>()
        for item in crisis {
            let text = try #require(item["text"]), category = try #require(item["category"])
            categories.insert(category)
            #expect(gate.check(text) == .crisis(try #require(SafetyCategory(rawValue: category))), "\(tag): “\(text)”")
        }
        #expect(categories == Set(SafetyCategory.allCases.map(\.rawValue)), "\(tag): every category is covered")
        for text in benign { #expect(gate.check(text) == .ok, "\(tag): “\(text)”") }
    }

    @Test("obfuscation does not hide crisis language; idioms and negations do not raise it")
    func englishRules() throws {
        let gate = try english().safety
        for text in ["su1c1de", "I want to k1ll mys3lf", "s u i c i d e", "S.U.I.C.I.D.E", "i want to diiiie", "I WANT TO END IT ALL",
                     "I had a normal day, went to work, came home. Honestly I just want to end it all. Then I made dinner.",
                     "My brother said he wants to kill himself"] {
            #expect(gate.check(text) == .crisis(.suicide), "\(text)")
        }
        for text in ["I'm killing it at work", "this cake is to die for", "I'm dead tired", "dying laughing at this",
                     "killing time before the train", "We watched Suicide Squad", "I would never kill myself",
                     "I'm not suicidal, just exhausted", "I need to cut myself some slack"] {
            #expect(gate.check(text) == .ok, "\(text)")
        }
        #expect(gate.check("I would never kill myself, but I can't go on like this") == .crisis(.crisis))
    }

    @Test("the output filter blocks PII and medical claims and passes crisis lines and support")
    func outputFilter() throws {
        let language = try english()
        let blocked: [(String, OutputFilter.Reason)] = [
            ("call me at 555-123-4567", .phone), ("you have depression", .diagnosis), ("It sounds like you have an eating disorder.", .diagnosis),
            ("you should take sertraline", .medication), ("Increase your dose tonight.", .medication), ("write to me at sam@example.org", .email),
            ("my card is 4111 1111 1111 1111", .card), ("SSN 123-45-6789", .nationalID), ("+44 20 7946 0958", .phone),
        ]
        for (text, reason) in blocked { #expect(language.outputFilter.check(text) == .blocked(reason), "\(text)") }
        for text in ["Text HOME to 741741", "you have the strength to get through this", "you have been through a lot",
                     "call or text 988", "Samaritans: call 116 123", "you should take a walk", "you should take your time",
                     "On 2026-11-22 at 10:30", "4111 1111 1111 1112 is not a card"] {
            #expect(language.outputFilter.check(text) == .ok, "\(text)")
        }
        let screened = language.screen(generated: "you have depression")
        #expect(screened.blocked == .diagnosis)
        #expect(screened.text == "I'm here with you. Let's take this one step at a time.")
        #expect(language.screen(generated: "Well done today.") == ScreenedText(text: "Well done today.", blocked: nil))
    }

    @Test("Q1 'I want to end it all' gives a safety event with the region's resources before the next prompt; the flow goes on")
    func inFlow() throws {
        let library = ContentLibrary(root: ContentRoot(repositoryRoot))
        let source = try library.catalog.source(for: "reflection", mood: .bad)
        for (region, line) in [("US", "988 Suicide & Crisis Lifeline: call or text 988"), ("UK", "Samaritans: call 116 123 (free, day and night)")] {
            var opts = options()
            opts.region = region
            let session = try FlowSession.open(source, language: try library.language(for: "en"), options: opts)
            try session.answer(.number(8))
            let events = try session.submit(.text("I want to end it all"))
            let kinds = events.map { if case .safety = $0 { "safety" } else if case .prompt = $0 { "prompt" } else if case .saved = $0 { "saved" } else { "other" } }
            #expect(kinds == ["saved", "safety", "prompt"], "\(kinds)")
            guard case .safety(let notice) = events[1] else { continue }
            #expect(notice.category == .suicide && notice.level == "crisis" && notice.region == region)
            #expect(notice.resources.contains(line))
            #expect(!notice.text.contains("end it all"), "the notice never repeats the person's words")
            #expect(session.current?.step == "thought", "the flow is not blocked")
            #expect(session.current?.text.contains("end it all") == false, "a flagged answer is not quoted into the next question")
            #expect(session.current?.text == (try library.language(for: "en").localizer.string("reflection.negative.q2.static")),
                    "the flow's fallback wording is used instead")
            #expect(session.save.answers.contains { $0.value == .text("I want to end it all") }, "what they wrote is kept as written")
        }
    }

    @Test("a flagged answer is stored with its flag; the event row holds category and time, never the text")
    func stored() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("reflect-safety-\(UUID().uuidString)")
        let store = try Store(path: dir.appendingPathComponent("db.sqlite").path)
        let library = ContentLibrary(root: ContentRoot(repositoryRoot))
        let session = try FlowSession.open(try library.catalog.source(for: "reflection", mood: .bad),
                                           language: try library.language(for: "de"), options: options())
        try store.beginSession(SessionRecord(starting: session, user: "u", personality: nil, startedAt: "2026-11-22T08:15:00+01:00"))
        let journal = StoreJournal(store: store, sessionID: session.sessionID, day: "2026-11-22", timestamp: { "2026-11-22T08:16:00+01:00" })
        session.journal = journal
        try session.answer(.number(8))
        let events = try session.submit(.text("Ich will nicht mehr leben, ich will mich umbringen"))
        let notice = try #require(events.compactMap { if case .safety(let n) = $0 { n } else { nil } }.first)
        #expect(notice.region == "DE")
        #expect(notice.resources.contains { $0.contains("0800 111 0 111") })
        let detail = try store.detail(session.sessionID)
        let answer = try #require(detail.answers.first { $0.step == "situation" })
        #expect(answer.safety == "suicide")
        #expect(answer.value.contains("umbringen"), "the person's words are kept")
        let event = try #require(detail.events.first { $0.kind == .safety })
        #expect(event.category == "suicide" && event.at == "2026-11-22T08:16:00+01:00" && event.step == "situation")
    }
}

@Suite("Safety normalisation")
struct SafetyNormalisationTests {
    @Test("an accented phrase matches on the squeezed path too (phrases and text go through the same steps)")
    func accentThenSqueeze() throws {
        let gate = try SafetyGate(SafetyData(phrases: ["suicide": ["idées noires"]], benign: ["pas d'idées noires"]))
        #expect(gate.check("j'ai des idéééées noires") == .crisis(.suicide))
        #expect(gate.check("je n'ai pas d'idées noires") == .ok)
    }
}
