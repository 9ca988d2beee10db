import Foundation
import Testing
import ReflectCore
@testable import ReflectEngine

/// A content root with the repository's flows, locales and personalities
/// and experiments of its own.
struct ExperimentContent {
    let root: URL
    var library: ContentLibrary { ContentLibrary(root: ContentRoot(root)) }

    init(_ experiments: [String: String]) throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("reflect-exp-\(UUID().uuidString)")
        let fm = FileManager.default
        try fm.createDirectory(at: root.appendingPathComponent("experiments"), withIntermediateDirectories: true)
        for dir in ["flows", "locales", "personalities"] {
            try fm.createSymbolicLink(at: root.appendingPathComponent(dir), withDestinationURL: repositoryRoot.appendingPathComponent(dir))
        }
        for (name, text) in experiments {
            try text.write(to: root.appendingPathComponent("experiments/\(name).yaml"), atomically: true, encoding: .utf8)
        }
    }
}

/// Wording of the reflection's first question, as an experiment.
let wordingExperiment = """
    key: q1-wording
    status: running
    coverage: 1
    targeting: { flows: [reflection] }
    variations:
      - id: control
      - id: warm
        strings:
          en:
            reflection.negative.q1: "Tell me, in a sentence or two: what happened today?"
          de:
            reflection.negative.q1: "Erzähl mir in ein, zwei Sätzen: Was ist heute passiert?"
    """

/// Records what the journal receives about experiments.
final class ExposureJournal: SessionJournal {
    var exposures: [VariantAssignment] = []
    func answered(_ answer: RecordedAnswer, position: Int, prompt: Prompt, outcome: AnswerOutcome) throws {
        exposures += outcome.exposures
    }
    func answered(_ answer: RecordedAnswer, position: Int, prompt: Prompt, safety: SafetyCategory?) throws {}
    func wentBack(from step: StepID) throws {}
    func detected(_ type: DistortionType, step: StepID) throws {}
    func probed(step: StepID) throws {}
    func finished(_ summary: DoneSummary) throws {}
    func exposed(_ exposures: [VariantAssignment]) throws { self.exposures += exposures }
}

extension [FlowEvent] {
    var variants: [(StepID, String, String)] {
        compactMap { if case .variant(let s, let e, let v) = $0 { (s, e, v) } else { nil } }
    }
}

@Suite("Experiments in a session")
struct ExperimentSessionTests {
    static let warm = [VariantAssignment(experiment: "q1-wording", variation: "warm")]
    static let control = [VariantAssignment(experiment: "q1-wording", variation: "control")]

    func open(_ content: ExperimentContent, _ variants: [VariantAssignment], locale: String = "en",
              save: SessionSave? = nil) throws -> (FlowSession, ExposureJournal) {
        let language = try content.library.language(for: locale, variants: variants)
        let source = try content.library.catalog.source(for: "reflection.negative")
        let session = try FlowSession.open(source, language: language, options: options(), resuming: save)
        let journal = ExposureJournal()
        session.journal = journal
        return (session, journal)
    }

    @Test("the arm's wording is shown, and the exposure fires once, when live: answer, back, answer again")
    func exposureOnce() throws {
        let content = try ExperimentContent(["q1-wording": wordingExperiment])
        let (session, journal) = try open(content, Self.warm)
        let opening = try session.begin()
        #expect(opening.variants.isEmpty) // the first prompt does not use the varied key
        let first = try session.answer(.number(7))
        #expect(first.variants.map { $0.0 } == ["situation"])
        #expect(first.variants.map { $0.2 } == ["warm"])
        #expect(first.prompts.last?.text == "Tell me, in a sentence or two: what happened today?")
        // The variant event goes out with the prompt, just before it.
        #expect(first.suffix(2).first.map { if case .variant = $0 { true } else { false } } == true)
        let back = try session.answer(.command(.back))
        #expect(back.variants.isEmpty)
        let again = try session.answer(.number(6))
        #expect(again.variants.isEmpty)
        #expect(again.prompts.last?.text == "Tell me, in a sentence or two: what happened today?")
        #expect(journal.exposures == [VariantAssignment(experiment: "q1-wording", variation: "warm")])
        #expect(session.save.variants == Self.warm && session.save.exposed == ["q1-wording"])
    }

    @Test("control people are exposed by the same prompt and see the locale's text")
    func controlExposure() throws {
        let content = try ExperimentContent(["q1-wording": wordingExperiment])
        let (session, journal) = try open(content, Self.control)
        _ = try session.begin()
        let events = try session.answer(.number(7))
        #expect(events.variants.map { $0.2 } == ["control"])
        #expect(events.prompts.last?.text == "What happened today that affected your mood?")
        #expect(journal.exposures.count == 1)
    }

    @Test("people outside the experiment see control text and are never exposed")
    func outside() throws {
        let content = try ExperimentContent(["q1-wording": wordingExperiment])
        let (session, journal) = try open(content, [])
        var events = try session.begin()
        events += try session.answer(.number(7), .text("My manager cancelled our meeting twice this week."))
        #expect(events.variants.isEmpty && journal.exposures.isEmpty)
        #expect(events.prompts[1].text == "What happened today that affected your mood?")
    }

    @Test("resuming from the save (a later day, after a crash) shows the same wording and counts nothing again")
    func resume() throws {
        let content = try ExperimentContent(["q1-wording": wordingExperiment])
        let (session, _) = try open(content, Self.warm)
        _ = try session.begin()
        _ = try session.answer(.number(7))
        let data = try JSONEncoder().encode(session.save)
        let save = try SessionSave.decodeValidated(from: data)
        #expect(save.variants == Self.warm)
        // The host rebuilds the language from the save's arms, never a new assignment.
        let (resumed, journal) = try open(content, save.variants, save: save)
        let events = try resumed.begin()
        #expect(events.prompts.first?.text == "Tell me, in a sentence or two: what happened today?")
        #expect(events.variants.isEmpty && journal.exposures.isEmpty)
    }

    @Test("a crash before the exposure was recorded: the standing prompt records it when shown again")
    func standingPromptExposure() throws {
        let content = try ExperimentContent(["q1-wording": wordingExperiment])
        let (session, _) = try open(content, Self.warm)
        _ = try session.begin()
        _ = try session.answer(.number(7))
        var save = session.save
        save.exposed = [] // the journal never got it
        let (resumed, journal) = try open(content, save.variants, save: save)
        let events = try resumed.begin()
        #expect(events.variants.map { $0.2 } == ["warm"])
        #expect(journal.exposures.count == 1)
    }

    @Test("per-key fallback: a locale the arm does not cover keeps its own text for that key")
    func perKeyFallback() throws {
        var yaml = wordingExperiment
        yaml = yaml.replacingOccurrences(of: """
                  de:
                    reflection.negative.q1: "Erzähl mir in ein, zwei Sätzen: Was ist heute passiert?"
            """, with: "")
        let content = try ExperimentContent(["q1-wording": yaml])
        let (de, _) = try open(content, Self.warm, locale: "de")
        _ = try de.begin()
        let events = try de.answer(.number(7))
        #expect(events.prompts.last?.text == "Was ist heute passiert, das deine Stimmung beeinflusst hat?")
        let (deFull, _) = try open(try ExperimentContent(["q1-wording": wordingExperiment]), Self.warm, locale: "de")
        _ = try deFull.begin()
        #expect(try deFull.answer(.number(7)).prompts.last?.text == "Erzähl mir in ein, zwei Sätzen: Was ist heute passiert?")
    }

    @Test("a personality arm changes the voice from the first prompt, which is its exposure")
    func personalityArm() throws {
        let content = try ExperimentContent(["voice": """
            key: voice
            status: running
            variations:
              - id: control
              - id: zen
                personality: zen
            """])
        let (session, journal) = try open(content, [VariantAssignment(experiment: "voice", variation: "zen")])
        let events = try session.begin()
        #expect(events.variants.map { $0.2 } == ["zen"])
        #expect(events.prompts.first?.text == "Let's pause for a breath. How strong is this feeling, right now?")
        #expect(journal.exposures.count == 1)
    }

    @Test("s:variant returns the arm (exposed at the next prompt), control for people outside, an error for an unknown key")
    func flowReadsVariant() throws {
        let content = try ExperimentContent(["q1-wording": wordingExperiment])
        let flow = source("flows/test/variant.lua", """
            return flow {
              id = "test.variant", version = 1,
              run = function(s)
                s:message { id = "hello", text = "Hello there" }
                local arm = s:variant("q1-wording")
                s:message { id = "arm", text = "You are in " .. arm }
              end,
            }
            """)
        for (variants, expected, exposed) in [(Self.warm, "You are in warm", 1), ([], "You are in control", 0)] {
            let language = try content.library.language(for: "en", variants: variants)
            let session = try FlowSession.open(flow, language: language, options: options())
            var events = try session.begin()
            events += try session.answer(.acknowledge)
            #expect(events.prompts.last?.text == expected)
            #expect(events.variants.count == exposed)
        }
        let unknown = source("flows/test/unknown.lua", """
            return flow { id = "test.unknown", version = 1, run = function(s) s:message { id = "m", text = s:variant("nope") } end }
            """)
        let language = try content.library.language(for: "en")
        #expect(throws: EngineError.self) { try FlowSession.open(unknown, language: language, options: options()) }
    }

    @Test("an arm whose experiment file is gone falls back to control text")
    func removedExperiment() throws {
        let content = try ExperimentContent([:])
        let (session, _) = try open(content, Self.warm)
        #expect(session.language.variants.assignments.isEmpty)
        _ = try session.begin()
        #expect(try session.answer(.number(7)).prompts.last?.text == "What happened today that affected your mood?")
    }
}
