import Foundation
import ReflectCore
import ReflectEngine
import Yams

/// The facts a transcript test's session starts with: a new person's at
/// the test's clock (the logical day and phase by the default 04:00
/// boundary, first time today and ever, the default Prep Library), with
/// the test's `facts:` mapping laid over it:
///
/// ```yaml
/// facts:
///   first_today: false
///   first_ever: false
///   streak: { current: 9, longest: 9, last_seven_days: 7 }
///   earlier: [ { flow: coach.morning, step: stress_response, value: "Dance to one song" } ]
///   prep: [ { id: water, key: coach.prep.item.water }, { id: my-1, text: "Lay out my shoes" } ]
///   last_night_prep: [ { id: water, mark: done } ]
///   profile: { tone: direct, length: short, preferred_actions: [exercise], avoid_topics: [money] }
/// ```
enum TranscriptFacts {
    static func make(_ node: Node?, clock: FlowClock, doc: YAMLDocument) throws(EngineError) -> UserFacts {
        let moment = DayRules().moment(clock)
        var facts = UserFacts(day: moment.day.description, phase: moment.phase, firstToday: true, firstEver: true,
                              prepItems: PrepLibrary.defaults)
        guard let node else { return facts }
        for (key, keyNode, value) in try doc.mapping(node, "facts") {
            switch key {
            case "first_today": facts.firstToday = try bool(value, key, doc)
            case "first_ever": facts.firstEver = try bool(value, key, doc)
            case "day":
                let d = try doc.string(value, key)
                guard CalendarDay(d) != nil else { throw doc.fail(value, "day must be YYYY-MM-DD") }
                facts.day = d
            case "phase":
                guard let p = DayPhase(rawValue: try doc.string(value, key)) else { throw doc.fail(value, "phase must be day or evening") }
                facts.phase = p
            case "streak":
                var current = 0, longest = 0, seven = 0
                for (k, kn, v) in try doc.mapping(value, "streak") {
                    switch k {
                    case "current": current = try doc.int(v, k)
                    case "longest": longest = try doc.int(v, k)
                    case "last_seven_days": seven = try doc.int(v, k)
                    default: throw doc.fail(kn, "unknown key '\(k)' (current, longest, last_seven_days)")
                    }
                }
                facts.streak = StreakFigures(current: current, longest: max(longest, current), lastSevenDays: seven)
            case "earlier":
                facts.earlierAnswers = []
                for item in try list(value, key, doc) {
                    var flow = "", step: StepID?, answer: AnswerValue?
                    for (k, kn, v) in try doc.mapping(item, "an earlier answer") {
                        switch k {
                        case "flow": flow = try doc.string(v, k)
                        case "step": step = StepID(try doc.string(v, k))
                        case "value": answer = try answerValue(v, doc)
                        default: throw doc.fail(kn, "unknown key '\(k)' (flow, step, value)")
                        }
                    }
                    guard !flow.isEmpty, let step, let answer else { throw doc.fail(item, "an earlier answer needs flow, step and value") }
                    facts.earlierAnswers.append(EarlierAnswer(flow: flow, step: step, value: answer))
                }
            case "prep":
                facts.prepItems = []
                for item in try list(value, key, doc) {
                    var id = "", label: PrepItemLabel?
                    for (k, kn, v) in try doc.mapping(item, "a prep item") {
                        switch k {
                        case "id": id = try doc.string(v, k)
                        case "key": label = .key(try doc.string(v, k))
                        case "text": label = .literal(try doc.string(v, k))
                        default: throw doc.fail(kn, "unknown key '\(k)' (id, key, text)")
                        }
                    }
                    guard StepID.isValid(id), let label else { throw doc.fail(item, "a prep item needs an id and a key or text") }
                    facts.prepItems.append(PrepItem(id: id, label: label, core: false))
                }
            case "profile":
                var choices = PersonalizationChoices()
                for (k, kn, v) in try doc.mapping(value, "profile") {
                    switch k {
                    case "tone":
                        guard let t = PersonalizationProfile.Tone(rawValue: try doc.string(v, k)) else {
                            throw doc.fail(v, "tone must be warm, direct, cheerful or neutral")
                        }
                        choices.tone = t
                    case "length":
                        guard let l = PersonalizationProfile.ResponseLength(rawValue: try doc.string(v, k)) else {
                            throw doc.fail(v, "length must be short, medium or long")
                        }
                        choices.responseLength = l
                    case "preferred_actions", "avoid_topics":
                        var themes: [Theme] = []
                        for raw in try doc.strings(v, k) {
                            guard let t = Theme(rawValue: raw) else { throw doc.fail(v, "'\(raw)' is not a theme") }
                            themes.append(t)
                        }
                        if k == "preferred_actions" { choices.preferredActions = themes } else { choices.avoidTopics = themes }
                    default: throw doc.fail(kn, "unknown key '\(k)' (tone, length, preferred_actions, avoid_topics)")
                    }
                }
                facts.profile = choices.profile
            case "last_night_prep":
                facts.lastNightPrep = []
                for item in try list(value, key, doc) {
                    var id = "", mark: ChecklistMark?
                    for (k, kn, v) in try doc.mapping(item, "a prep mark") {
                        switch k {
                        case "id": id = try doc.string(v, k)
                        case "mark": mark = ChecklistMark(rawValue: try doc.string(v, k))
                        default: throw doc.fail(kn, "unknown key '\(k)' (id, mark)")
                        }
                    }
                    guard !id.isEmpty, let mark else { throw doc.fail(item, "a prep mark needs an id and done, partly or skip") }
                    facts.lastNightPrep.append(PrepMark(itemID: id, mark: mark))
                }
            default:
                throw doc.fail(keyNode, "unknown key '\(key)' in facts (day, phase, first_today, first_ever, streak, earlier, prep, last_night_prep, profile)")
            }
        }
        return facts
    }

    private static func bool(_ node: Node, _ what: String, _ doc: YAMLDocument) throws(EngineError) -> Bool {
        switch node.scalar?.string {
        case "true": return true
        case "false": return false
        default: throw doc.fail(node, "\(what) must be true or false")
        }
    }

    private static func list(_ node: Node, _ what: String, _ doc: YAMLDocument) throws(EngineError) -> [Node] {
        guard let seq = node.sequence else { throw doc.fail(node, "\(what) must be a list") }
        return Array(seq)
    }

    private static func answerValue(_ node: Node, _ doc: YAMLDocument) throws(EngineError) -> AnswerValue {
        guard let scalar = node.scalar else { throw doc.fail(node, "an earlier value must be text, a number or true/false") }
        if scalar.style == .plain {
            if scalar.string == "true" { return .boolean(true) }
            if scalar.string == "false" { return .boolean(false) }
            if let i = Int(scalar.string) { return .integer(i) }
        }
        return .text(scalar.string)
    }
}

/// The host's answer to `s:related` in a transcript test: the test's
/// `related:` entries, in order, up to the request's limit, whenever there
/// is text to search for (a flagged answer leaves none). The ranking itself
/// is the store's (`RelatedEntryTests`); a transcript shows what the flow
/// does with what it is given.
///
/// ```yaml
/// related:
///   - { day: "2026-10-02", text: "The deadline at work scared me", flow: journal.check-in }
/// ```
struct TranscriptRelatedEntries: RelatedEntrySource {
    let entries: [RelatedEntry]

    static func make(_ node: Node, doc: YAMLDocument) throws(EngineError) -> TranscriptRelatedEntries {
        guard let seq = node.sequence else { throw doc.fail(node, "related must be a list of { day, text, flow }") }
        var out: [RelatedEntry] = []
        for (i, item) in seq.enumerated() {
            var day = "", text = "", flow = "journal.check-in"
            for (k, kn, v) in try doc.mapping(item, "a related entry") {
                switch k {
                case "day": day = try doc.string(v, k)
                case "text": text = try doc.string(v, k)
                case "flow": flow = try doc.string(v, k)
                default: throw doc.fail(kn, "unknown key '\(k)' (day, text, flow)")
                }
            }
            guard CalendarDay(day) != nil, !text.isEmpty else { throw doc.fail(item, "a related entry needs a day (YYYY-MM-DD) and text") }
            out.append(RelatedEntry(day: day, text: text, flow: flow, session: "transcript-\(i)", step: "note", score: 1))
        }
        return TranscriptRelatedEntries(entries: out)
    }

    func relatedEntries(to text: String, now: String, excluding: String, limit: Int) throws -> [RelatedEntry] {
        text.isEmpty ? [] : Array(entries.prefix(limit))
    }
}
