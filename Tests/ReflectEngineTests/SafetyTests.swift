import Foundation
import Testing
import Yams
import ReflectCore
import ReflectStore
@testable import ReflectEngine
import ReflectStoreJournal

/// Issue 6: the safety gate and the output filter, with the repository's
/// locale data, and their place in every flow.
@Suite("Safety")
struct SafetyTests {
    static let locales = ["en", "de", "es", "fr", "ja", "ko", "pt-BR"]

    /// A fixture file: `TEXT<TAB>LABEL` lines (`#` comments), as read by
    /// `reflect safety --report`.
    static func labelled(_ path: String) throws -> [(text: String, label: String, line: Int)] {
        let text = try String(contentsOf: repositoryRoot.appendingPathComponent(path), encoding: .utf8)
        var out: [(String, String, Int)] = []
        for (i, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
        where !line.trimmingCharacters(in: .whitespaces).isEmpty && !line.hasPrefix("#") {
            let parts = line.split(separator: "\t", omittingEmptySubsequences: false)
            #expect(parts.count == 2, "\(path):\(i + 1): TEXT<TAB>LABEL")
            guard parts.count == 2 else { continue }
            out.append((String(parts[0]), String(parts[1]), i + 1))
        }
        return out
    }

    @Test("every tuned crisis fixture is flagged with its category and no benign fixture is, in every locale", arguments: locales)
    func fixtures(tag: String) throws {
        let items = try SafetyTests.labelled("Tests/Fixtures/safety/\(tag).tsv")
        let crisis = items.filter { $0.label != "ok" }, benign = items.filter { $0.label == "ok" }
        #expect(crisis.count >= 150 && benign.count >= 150, "\(tag): \(crisis.count) crisis, \(benign.count) benign")
        let gate = try ContentLibrary(root: ContentRoot(repositoryRoot)).language(for: tag).safety
        for item in crisis {
            let category = try #require(SafetyCategory(rawValue: item.label), "\(tag).tsv:\(item.line): unknown label \(item.label)")
            #expect(gate.check(item.text) == .crisis(category), "\(tag).tsv:\(item.line): “\(item.text)”")
        }
        #expect(Set(crisis.map(\.label)) == Set(SafetyCategory.allCases.map(\.rawValue)), "\(tag): every category is covered")
        for item in benign { #expect(gate.check(item.text) == .ok, "\(tag).tsv:\(item.line): “\(item.text)”") }
    }

    @Test("every locale has a held-out fixture file, kept apart from the tuned one, covering every category", arguments: locales)
    func heldOut(tag: String) throws {
        let items = try SafetyTests.labelled("Tests/Fixtures/safety/heldout/\(tag).tsv")
        let tuned = Set(try SafetyTests.labelled("Tests/Fixtures/safety/\(tag).tsv").map(\.text))
        for item in items {
            #expect(item.label == "ok" || SafetyCategory(rawValue: item.label) != nil, "heldout/\(tag).tsv:\(item.line): \(item.label)")
            let alsoTuned = tuned.contains(item.text)
            #expect(!alsoTuned, "heldout/\(tag).tsv:\(item.line) is also a tuned fixture")
        }
        #expect(Set(items.map(\.label)) == Set(SafetyCategory.allCases.map(\.rawValue) + ["ok"]), "\(tag): every category is covered")
    }

    @Test("every generated-text fixture gets its verdict from the output filter (medical boundary), in every locale", arguments: locales)
    func generatedFixtures(tag: String) throws {
        let items = try SafetyTests.labelled("Tests/Fixtures/safety/generated/\(tag).tsv")
        let filter = try ContentLibrary(root: ContentRoot(repositoryRoot)).language(for: tag).outputFilter
        #expect(items.contains { $0.label == "medical.diagnosis" } && items.contains { $0.label == "medical.medication" }
                && items.contains { $0.label == "ok" }, "\(tag): both medical kinds and ok lines")
        for item in items {
            let expected: OutputFilter.Verdict = item.label == "ok" ? .ok : .blocked(try #require(OutputFilter.Reason(rawValue: item.label)))
            #expect(filter.check(item.text) == expected, "generated/\(tag).tsv:\(item.line): “\(item.text)”")
        }
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
                     "I'm not suicidal, just exhausted", "I need to cut myself some slack",
                     "I'm dying to see it", "that killed me", "no way I'd hurt myself"] {
            #expect(gate.check(text) == .ok, "\(text)")
        }
        #expect(gate.check("I would never kill myself, but I can't go on like this") == .crisis(.crisis))
    }

    @Test("indirect ideation is met: not waking up, better off without me, burden, no reason to go on, goodbyes, giving things away")
    func indirectIdeation() throws {
        let gate = try english().safety
        for (text, category) in [("I wish I could go to sleep and never wake up", SafetyCategory.suicide),
                                 ("everybody would be better off if I was gone", .suicide),
                                 ("I've been giving away my stuff, I won't need it", .suicide),
                                 ("I've said my goodbyes to everyone", .suicide),
                                 ("I'm nothing but a burden", .crisis), ("there's no reason to keep going", .crisis)] {
            #expect(gate.check(text) == .crisis(category), "\(text)")
        }
        for text in ["I'm giving away my old books, anyone want them?", "we said our goodbyes at the station",
                     "I didn't want to wake up this morning, the bed was so warm", "no reason to rush, we have time"] {
            #expect(gate.check(text) == .ok, "\(text)")
        }
    }

    @Test("abuse and substance use have their own category, warm message and helplines before the crisis lines")
    func topicNotices() throws {
        let library = ContentLibrary(root: ContentRoot(repositoryRoot))
        let en = try library.language(for: "en")
        let cases: [(String, SafetyCategory, String)] = [
            ("my dad gets drunk and beats my mom and me", .abuse, "National Domestic Violence Hotline"),
            ("I've been drinking every day just to feel normal", .substanceAbuse, "SAMHSA National Helpline"),
        ]
        for (text, category, line) in cases {
            #expect(en.safety.check(text) == .crisis(category), "\(text)")
            var opts = options()
            opts.region = "US"
            let session = try FlowSession.open(try library.catalog.source(for: "reflection", mood: .bad), language: en, options: opts)
            try session.answer(.number(8))
            let notice = try #require(try session.submit(.text(text)).compactMap { if case .safety(let n) = $0 { n } else { nil } }.first)
            #expect(notice.category == category)
            #expect(notice.text == en.localizer.string("safety.message.\(category.rawValue)"), "its own message")
            #expect(notice.text != en.localizer.string("safety.message"))
            #expect(notice.resources.first?.hasPrefix(line) == true, "\(notice.resources)")
            #expect(notice.resources.contains("988 Suicide & Crisis Lifeline: call or text 988"), "the crisis lines follow")
        }
        // A suicide notice keeps the general message and the crisis lines only.
        #expect(en.resources(for: "US", category: .suicide) == en.resources(for: "US"))
        #expect(en.safetyMessage(for: .suicide) == en.localizer.string("safety.message"))
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
        #expect(screened.text == "I can't provide medical advice. Please consult a licensed professional.", "the medical line of generation §6")
        #expect(language.screen(generated: "call me at 555-123-4567").text == "I'm here with you. Let's take this one step at a time.")
        #expect(language.screen(generated: "Well done today.") == ScreenedText(text: "Well done today.", blocked: nil))
    }

    @Test("the medical boundary: medication suggested or named, second-person diagnosis, being sent to get diagnosed; a professional without a label passes")
    func medicalBoundary() throws {
        let filter = try english().outputFilter
        let blocked: [(String, OutputFilter.Reason)] = [
            ("You suffer from social anxiety.", .diagnosis), ("You are suffering from burnout and low mood.", .diagnosis),
            ("This matches a diagnosis of generalized anxiety disorder.", .diagnosis), ("Your diagnosis is bipolar disorder.", .diagnosis),
            ("I diagnose you with ADHD.", .diagnosis), ("You should get diagnosed with ADHD.", .diagnosis),
            ("It would be worth getting tested for PTSD.", .diagnosis),
            ("Have you considered medication?", .medication), ("A doctor might prescribe something to help you sleep.", .medication),
            ("Sertraline can take the edge off.", .medication), ("An over-the-counter sleep aid could help.", .medication),
            ("Maybe try some melatonin tonight.", .medication), ("Ibuprofen is good for that.", .medication),
        ]
        for (text, reason) in blocked { #expect(filter.check(text) == .blocked(reason), "\(text)") }
        for text in ["It might help to talk to a doctor or a therapist about how you've been feeling.",
                     "A counsellor could help you make sense of this.", "You have been through a lot this week.",
                     "You should take a break this afternoon.", "You suffered a loss; be gentle with yourself."] {
            #expect(filter.check(text) == .ok, "\(text)")
        }
        // The person's own mention of their medication may be named back; a suggestion still may not.
        let typed = "I started sertraline last month and I feel foggy"
        #expect(filter.check("You mentioned sertraline; how has the fog been today?", context: typed) == .ok)
        #expect(filter.check("You mentioned sertraline; how has the fog been today?") == .blocked(.medication))
        #expect(filter.check("You could try sertraline at night instead.", context: typed) == .blocked(.medication))
        #expect(filter.check("Have you thought about melatonin?", context: typed) == .blocked(.medication))
    }

    @Test("Q1 'I want to end it all' gives a safety event with the region's resources before the next prompt; the flow goes on")
    func inFlow() throws {
        let library = ContentLibrary(root: ContentRoot(repositoryRoot))
        let source = try library.catalog.source(for: "reflection", mood: .bad)
        for (region, line) in [("US", "988 Suicide & Crisis Lifeline: call or text 988"), ("UK", "Samaritans: call 116 123 (free, day and night)")] {
            var opts = options()
            opts.region = region
            let session = try FlowSession.open(source, language: try library.language(for: "en"), options: opts)
            session.journal = MemoryJournal()
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
        #expect(answer.safety == .suicide)
        #expect(answer.value == .text("Ich will nicht mehr leben, ich will mich umbringen"), "the person's words are kept")
        let event = try #require(detail.events.first { $0.kind == .safety })
        #expect(event.category == .suicide && event.at == "2026-11-22T08:16:00+01:00" && event.step == "situation")
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
