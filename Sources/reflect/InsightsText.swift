import ReflectCore
import ReflectEngine

/// `reflect insights` as text or Markdown, in the person's language. A
/// figure the report left out (too little data) is named as such, never
/// guessed. Tag × mood is worded as an association, never a cause.
struct InsightsText {
    let language: Language
    let markdown: Bool

    func s(_ key: String, _ args: String...) -> String {
        Template(language.localizer.string(key) ?? key).render(args)
    }

    /// A figure as the person reads it ("3,3" in German).
    func number(_ x: Double) -> String { language.localizer.numbers.format(x) }

    func render(_ r: InsightsReport) -> String {
        var out: [String] = [heading(s("insights.title", r.from.description, r.to.description), level: 1)]
        let nothing = r.moodLog.entries == 0 && r.checkIns.checkIns == 0 && r.distortionsByWeek.isEmpty && r.cravingsByWeek.isEmpty
        if nothing {
            out.append(s("insights.empty"))
            return out.joined(separator: "\n") + "\n"
        }
        // Mood log
        if let mean = r.moodLog.mean {
            out.append(item(s("insights.mood_log", "\(r.moodLog.entries)", number(mean))))
        } else {
            out.append(item(s("insights.mood_log.few", "\(r.moodLog.entries)", "\(Insights.Minimum.moodEntries)")))
        }
        if r.moodLog.entries > 0 {
            let parts = Mood.allCases.reversed().map { mood in
                let name = s("mood." + mood.rawValue)
                return name + " " + String(r.moodLog.distribution[mood.rawValue] ?? 0)
            }
            out.append(sub(parts.joined(separator: " · ")))
        }
        if let best = r.moodLog.bestWeekday, let worst = r.moodLog.worstWeekday,
           let b = r.moodLog.weekdays.first(where: { $0.weekday == best }), let w = r.moodLog.weekdays.first(where: { $0.weekday == worst }) {
            let bestName = s("weekday." + String(best)), worstName = s("weekday." + String(worst))
            out.append(sub(s("insights.weekdays", bestName, number(b.mean), worstName, number(w.mean))))
        }
        if let streak = r.streak { out.append(item(s("insights.streak", "\(streak.current)", "\(streak.longest)"))) }
        // Check-ins
        if let last = r.checkIns.lastSevenDays {
            out.append(item(s("insights.checkins.last", "\(last.checkIns)") + " " + metrics(last)))
            if let before = r.checkIns.sevenDaysBefore {
                out.append(sub(s("insights.checkins.before", "\(before.checkIns)") + " " + metrics(before)))
            }
        } else {
            out.append(item(s("insights.checkins.few", "\(r.checkIns.checkIns)", "\(Insights.Minimum.checkInsPerWindow)")))
        }
        // Themes and mood
        if r.themes.isEmpty {
            out.append(item(s("insights.themes.few", "\(Insights.Minimum.daysPerSide)")))
        } else {
            out.append(item(s("insights.themes.title")))
            for t in r.themes {
                out.append(sub(s("insights.themes.line", s(t.theme.nameKey), number(t.moodWith), number(t.moodWithout),
                                 "\(t.daysWith)", "\(t.daysWithout)")))
            }
        }
        if !r.distortionsByWeek.isEmpty {
            out.append(item(s("insights.distortions.title")))
            for w in r.distortionsByWeek { out.append(sub("\(w.week): " + counts(w.counts))) }
        }
        let changes = r.intensityByDistortion + r.intensityByFlow
        if !changes.isEmpty {
            out.append(item(s("insights.intensity.title", "\(Insights.Minimum.sessionsPerChange)")))
            for c in changes { out.append(sub("\(c.key): \(c.meanChange > 0 ? "+" : "")\(number(c.meanChange)) (\(c.sessions))")) }
        }
        if !r.cravingsByWeek.isEmpty {
            out.append(item(s("insights.cravings.title")))
            for w in r.cravingsByWeek { out.append(sub("\(w.week): " + counts(w.counts))) }
        }
        return out.joined(separator: "\n") + "\n"
    }

    func metrics(_ a: MetricAverages) -> String {
        let pairs: [(String, Double?)] = [("mood", a.mood), ("energy", a.energy), ("stress", a.stress),
                                          ("sleep_hours", a.sleepHours), ("sleep_quality", a.sleepQuality)]
        return pairs.compactMap { key, v in v.map { s("insights.metric." + key) + " " + number($0) } }.joined(separator: " · ")
    }

    func counts(_ c: [String: Int]) -> String {
        c.sorted { $0.value > $1.value || ($0.value == $1.value && $0.key < $1.key) }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
    }

    func heading(_ text: String, level: Int) -> String { markdown ? String(repeating: "#", count: level) + " " + text + "\n" : text + "\n" }
    func item(_ text: String) -> String { markdown ? "- " + text : text }
    func sub(_ text: String) -> String { markdown ? "  - " + text : "  " + text }
}
