/// A locale's runtime data as bytes (``CompiledWriter``), so that a host
/// can keep parsed locale files on disk instead of parsing YAML at every
/// start. ``init(compiled:)`` gives back an equal value, or nil for bytes
/// that are not a complete record of this format.
extension LocaleData {
    /// Bumped whenever the layout below changes.
    public static let compiledFormat: UInt32 = 5

    public func write(to w: inout CompiledWriter) {
        w.u32(LocaleData.compiledFormat)
        w.string(tag)
        w.string(name)
        w.bool(matching == .substring)
        w.stringMap(strings)
        w.int(probe.minimumCharacters)
        w.strings(probe.vaguePhrases)
        w.bool(distortions != nil)
        if let d = distortions {
            w.strings(d.priority)
            w.u32(UInt32(d.cues.count))
            for k in d.cues.keys.sorted() {
                w.string(k)
                let c = d.cues[k] ?? .init()
                w.strings(c.strong)
                w.strings(c.medium)
                w.strings(c.weak)
            }
            w.listMap(d.slots)
            w.double(d.threshold)
            w.strings(d.negation.before)
            w.strings(d.negation.after)
            w.int(d.negation.window)
            w.strings(d.clauseBreaks)
            w.strings(d.ownWords)
        }
        writeWords(answerWords, to: &w)
        w.bool(safety != nil)
        if let s = safety {
            w.listMap(s.phrases)
            w.listMap(s.slots)
            w.strings(s.benign)
            w.strings(s.benignUnless)
            w.strings(s.negations)
            w.strings(s.negationsAfter)
            w.string(s.negationsAfterScope.rawValue)
            w.strings(s.negationsVoid)
            w.listMap(s.medical)
            w.listMap(s.resources)
            let categories = SafetyCategory.allCases.filter { s.helplines[$0] != nil }
            w.u32(UInt32(categories.count))
            for c in categories {
                w.string(c.rawValue)
                w.listMap(s.helplines[c] ?? [:])
            }
            w.optionalString(s.defaultRegion)
        }
        w.bool(themes != nil)
        if let t = themes {
            let present = Theme.allCases.filter { t.words[$0] != nil }
            w.u32(UInt32(present.count))
            for theme in present {
                w.string(theme.rawValue)
                w.strings(t.words[theme] ?? [])
            }
            w.listMap(t.slots)
        }
    }

    private func writeWords(_ a: AnswerWords, to w: inout CompiledWriter) {
        w.u32(UInt32(a.fallbacks.count))
        for f in a.fallbacks { writeWords(f, to: &w) }
        for list in [a.yes, a.no, a.done, a.partly, a.skip] { w.strings(list) }
    }

    /// Reads one record written by ``write(to:)``; nil when the bytes are
    /// not one.
    public init?(reading r: inout CompiledReader) {
        guard r.u32() == LocaleData.compiledFormat, let tag = r.string(), let name = r.string(), let substring = r.bool(),
              let strings = r.stringMap(), let minimum = r.int(), let vague = r.strings(), let hasDistortions = r.bool() else { return nil }
        var data = LocaleData(tag: tag, name: name, matching: substring ? .substring : .wordBoundary, strings: strings,
                              probe: ProbeData(minimumCharacters: minimum, vaguePhrases: vague))
        if hasDistortions {
            guard let priority = r.strings(), let n = r.count(minimumSize: 16) else { return nil }
            var cues: [String: DistortionRules.Cues] = [:]
            for _ in 0..<n {
                guard let k = r.string(), let strong = r.strings(), let medium = r.strings(), let weak = r.strings() else { return nil }
                cues[k] = .init(strong: strong, medium: medium, weak: weak)
            }
            guard let slots = r.listMap(), let threshold = r.double(), let before = r.strings(), let after = r.strings(),
                  let window = r.int(), let breaks = r.strings(), let own = r.strings() else { return nil }
            data.distortions = DistortionRules(priority: priority, cues: cues, slots: slots, threshold: threshold,
                                               negation: .init(before: before, after: after, window: window),
                                               clauseBreaks: breaks, ownWords: own)
        }
        guard let words = LocaleData.readWords(&r, depth: 0), let hasSafety = r.bool() else { return nil }
        data.answerWords = words
        if hasSafety {
            guard let phrases = r.listMap(), let slots = r.listMap(), let benign = r.strings(), let unless = r.strings(),
                  let negations = r.strings(),
                  let after = r.strings(), let scopeName = r.string(), let scope = NegationScope(rawValue: scopeName),
                  let void = r.strings(), let medical = r.listMap(), let resources = r.listMap(), let n = r.count(minimumSize: 8)
            else { return nil }
            var helplines: [SafetyCategory: [String: [String]]] = [:]
            for _ in 0..<n {
                guard let name = r.string(), let c = SafetyCategory(rawValue: name), let lines = r.listMap() else { return nil }
                helplines[c] = lines
            }
            guard let region = r.optionalString() else { return nil }
            data.safety = SafetyData(phrases: phrases, slots: slots, benign: benign, benignUnless: unless, negations: negations, negationsAfter: after, negationsAfterScope: scope,
                                     negationsVoid: void, medical: medical,
                                     resources: resources, helplines: helplines, defaultRegion: region)
        }
        guard let hasThemes = r.bool() else { return nil }
        if hasThemes {
            guard let n = r.count(minimumSize: 8) else { return nil }
            var words: [Theme: [String]] = [:]
            for _ in 0..<n {
                guard let name = r.string(), let theme = Theme(rawValue: name), let list = r.strings() else { return nil }
                words[theme] = list
            }
            guard let slots = r.listMap() else { return nil }
            data.themes = ThemeLists(words: words, slots: slots)
        }
        self = data
    }

    private static func readWords(_ r: inout CompiledReader, depth: Int) -> AnswerWords? {
        guard depth < 8, let n = r.count(minimumSize: 24) else { return nil }
        var fallbacks: [AnswerWords] = []
        for _ in 0..<n {
            guard let f = readWords(&r, depth: depth + 1) else { return nil }
            fallbacks.append(f)
        }
        guard let yes = r.strings(), let no = r.strings(), let done = r.strings(), let partly = r.strings(), let skip = r.strings()
        else { return nil }
        var w = AnswerWords(yes: yes, no: no, done: done, partly: partly, skip: skip)
        w.fallbacks = fallbacks
        return w
    }
}
