import ReflectCore

/// The CSV export (RFC 4180, one header row): one row per answer (and
/// draft; `answer` as the person read it, ``readable(_:options:)``), per theme auto-tagging found in an answer (`theme` rows: `step`
/// is the answer's step, `note` the theme) and per generated text (`step`
/// is the request, `answer` the text shown) with its session's columns, then one row per mood entry, then the
/// coach's rows (`setting`, `prep_item`, `prep_mark`, `craving_note`; see
/// docs/storage.md), then one row per experiment exposure (`step` is the
/// experiment, `answer` the variation, `started_at` the exposure's time),
/// then achievements (`note` is the key, `day` the day earned) and
/// celebrations (`kind` the tier, `answer` the checklist item that earned
/// it, if any, `note` the reason and line), then one per
/// chat message (`session_id` is the chat, `started_at` the time, `kind` the
/// role, `question` the mode, `answer` the text), then the profile's choices
/// (`profile`: `kind` the tone, `question` the length, `answer` the
/// preferred actions, `note` the topics to avoid) and ratings (`rating`:
/// `step` chat or session, `kind` up or down, `question` the length class,
/// `answer` the action themes, `note` the reply's themes). The `record` column says
/// which (`answer`, `draft`, `theme`, `generated`, `mood`, `exposure`, `achievement`,
/// `celebration`, `chat`, `profile`, `rating`, …). For spreadsheets;
/// the JSON export is the one that imports back.
extension ExportDocument {
    public static let csvColumns = ["record", "session_id", "flow_id", "flow_version", "status", "started_at", "completed_at",
                                    "pre", "post", "position", "step", "kind", "question", "answer", "distortion",
                                    "user", "day", "mood", "note"]

    /// - Parameter recovered: per session id, the labels of answers stored
    ///   without their options (before schema v12), read from the flow as
    ///   it is now (``RecoveredOptionLabels``); without them such an answer
    ///   reads as its ids.
    public func csv(recovered: [String: RecoveredOptionLabels] = [:]) -> String {
        var rows = [ExportDocument.csvColumns]
        for s in sessions {
            let distortions = Dictionary(s.distortions.map { ($0.step, $0.type) }, uniquingKeysWith: { a, _ in a })
            for a in s.answers {
                rows.append([a.state.rawValue, s.id, s.flowID, "\(s.flowVersion)", s.status.rawValue, s.startedAt, s.completedAt ?? "",
                             s.pre.map(String.init) ?? "", s.post.map(String.init) ?? "", "\(a.position)", a.step.rawValue, a.kind,
                             a.question, ExportDocument.readable(a.value, options: a.options, step: a.step, recovered: recovered[s.id]),
                             distortions[a.step] ?? "", s.user, "", s.mood ?? "", ""])
            }
            for t in s.themes {
                rows.append(["theme", s.id, s.flowID, "\(s.flowVersion)", s.status.rawValue, s.startedAt, s.completedAt ?? "",
                             "", "", "", t.step.rawValue, "", "", "", "", s.user, "", "", t.theme])
            }
            for g in s.generated {
                rows.append(["generated", s.id, s.flowID, "\(s.flowVersion)", s.status.rawValue, s.startedAt, s.completedAt ?? "",
                             s.pre.map(String.init) ?? "", s.post.map(String.init) ?? "", "", g.request.rawValue, "generated",
                             "", g.text, "", s.user, "", s.mood ?? "", ""])
            }
        }
        for m in moodEntries {
            rows.append(["mood", m.sessionID ?? "", "", "", "", "", "", "", "", "", "", "", "", "", "", m.user, m.day, m.mood, m.note ?? ""])
        }
        rows += coachCSVRows()
        for e in experimentExposures ?? [] {
            rows.append(["exposure", e.sessionID ?? "", "", "", "", e.at, "", "", "", "", e.experiment, "", "", e.variant, "", e.user, "", "", ""])
        }
        for a in progress?.achievements ?? [] {
            rows.append(["achievement", "", "", "", "", "", "", "", "", "", "", "", "", "", "", a.user, a.achievedAt, "", a.key])
        }
        for c in progress?.celebrations ?? [] {
            rows.append(["celebration", c.sessionID ?? "", "", "", "", c.at, "", "", "", "", c.step ?? "", c.tier?.rawValue ?? "", "", c.item ?? "", "",
                         c.user, "", "", [c.reason, c.line].compactMap { $0 }.joined(separator: ": ")])
        }
        for c in chatMessages ?? [] {
            rows.append(["chat", c.chatID, "", "", "", c.at, "", "", "", "\(c.position)", "", c.role, c.mode, c.text, "", c.user, "", "", ""])
        }
        for p in personalization?.choices ?? [] {
            rows.append(["profile", "", "", "", "", p.updatedAt, "", "", "", "", "", p.tone ?? "", p.responseLength ?? "",
                         p.preferredActions.joined(separator: " "), "", p.user, "", "", p.avoidTopics.joined(separator: " ")])
        }
        for r in personalization?.ratings ?? [] {
            rows.append(["rating", r.target == "session" ? r.targetID : "", "", "", "", r.at, "", "", "", "", r.target, r.rating, r.length,
                         r.actionThemes.joined(separator: " "), "", r.user, "", "", r.themes.joined(separator: " ")])
        }
        return rows.map { $0.map(ExportDocument.field).joined(separator: ",") }.joined(separator: "\r\n") + "\r\n"
    }

    /// An answer as a person reads it: chosen options by their labels as
    /// shown (`options`, in the flow's order), a checklist item by item in
    /// the flow's order with its mark. Without `options` (older answers),
    /// the ids, as ``plainText(_:)``.
    public static func readable(_ v: AnswerValue, options: [PromptOption]?, words: ReadableWords = .machine) -> String {
        guard let options, !options.isEmpty else { return plainText(v, words: words) }
        return readable(v, labels: options, words: words, unknown: { $0 })
    }

    /// ``readable(_:options:)``, and for an answer stored without its
    /// options (before schema v12) that chose ids, the labels `recovered`
    /// read for its step from the flow as it is now: an id the flow no
    /// longer offers reads "id (no longer an option)"; when no labels could
    /// be read, the ids with the reason ("… (label unknown: the flow … is no
    /// longer installed)").
    /// A decimal answer is written with `numbers`, yes / no, marks and a
    /// skip with `words` (`reflect show`: the person's language, "7,5",
    /// "ja"; the CSV: ``NumberText/machine``, ``ReadableWords/machine``).
    public static func readable(_ v: AnswerValue, options: [PromptOption]?, step: StepID,
                                recovered: RecoveredOptionLabels?, numbers: NumberText = .machine, words: ReadableWords = .machine) -> String {
        if case .number(let d) = v { return numbers.format(d) }
        if let options, !options.isEmpty { return readable(v, options: options, words: words) }
        guard let recovered, v.choosesOptions else { return plainText(v, words: words) }
        if let now = recovered.options[step], !now.isEmpty {
            return readable(v, labels: now, words: words, unknown: { "\($0) (no longer an option)" })
        }
        return plainText(v, words: words) + " (label unknown: " + (recovered.unavailable ?? "the flow no longer asks this step") + ")"
    }

    /// The answer by `options`' labels; `unknown` for an id they do not list.
    static func readable(_ v: AnswerValue, labels options: [PromptOption], words: ReadableWords, unknown: (String) -> String) -> String {
        func label(_ id: String) -> String { options.first { $0.id == id }?.text ?? unknown(id) }
        switch v {
        case .choice(let id): return label(id)
        case .choices(let ids):
            let chosen = Set(ids)
            // The flow's order, then any id the options do not list.
            let ordered = options.map(\.id).filter(chosen.contains) + ids.filter { id in !options.contains { $0.id == id } }
            return ordered.isEmpty ? words.none : ordered.map(label).joined(separator: ", ")
        case .checklist(let marks):
            let ordered = options.map(\.id).filter { marks[$0] != nil } + marks.keys.sorted().filter { id in !options.contains { $0.id == id } }
            return ordered.compactMap { id in marks[id].map { "\(label(id)): \(words.mark($0))" } }.joined(separator: "; ")
        default: return plainText(v, words: words)
        }
    }

    public static func plainText(_ v: AnswerValue, words: ReadableWords = .machine) -> String {
        switch v {
        case .text(let s): s
        case .integer(let i): "\(i)"
        case .number(let d): NumberScale.format(d)
        case .boolean(let b): b ? words.yes : words.no
        case .choice(let id): id
        case .choices(let ids): ids.joined(separator: ";")
        case .checklist(let marks): marks.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value.rawValue)" }.joined(separator: ";")
        case .acknowledged: words.acknowledged
        case .skipped: words.skipped
        }
    }

    /// Characters that make a spreadsheet read a cell as a formula when
    /// they start it (OWASP, "CSV Injection").
    static let formulaStarts: Set<Character> = ["=", "+", "-", "@", "\t", "\r"]

    /// One RFC 4180 cell. A cell that starts like a formula is neutralised
    /// as OWASP recommends: prefixed with a single quote and quoted, so a
    /// spreadsheet shows `'=1+1` as text instead of computing it (the JSON
    /// export keeps every value exactly).
    static func field(_ raw: String) -> String {
        var s = raw
        var quote = s.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" })
        if let first = s.unicodeScalars.first, formulaStarts.contains(Character(first)) {
            s = "'" + s
            quote = true
        }
        guard quote else { return s }
        return "\"" + s.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
