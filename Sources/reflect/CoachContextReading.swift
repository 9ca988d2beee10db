import Foundation
import ReflectCore
import ReflectEngine
import ReflectStore

/// The day's coach context (coach spec §10), read once for `reflect coach
/// context` and `reflect chat`: today's answers of the coach flows, the
/// streak figures as `reflect progress` counts them, and this week's
/// craving notes; the nudge in `language`.
extension Store {
    func coachContext(user: String, clock: FlowClock, rules: DayRules, language: Language) throws(StoreError) -> CoachContext {
        var facts = try userFacts(user: user, flowID: "coach.chat", clock: clock, rules: rules)
        // `userFacts` leaves the streak to the progress feature (docs/progress.md).
        if let today = facts.day.flatMap(CalendarDay.init) {
            facts.streak = try progressFacts(user: user, flow: "coach.chat", today: today).streak
        }
        let day = rules.moment(clock).day
        let notes = try cravingNotes(user: user, from: day.adding(days: -6), to: day)
        return CoachContext.make(earlier: facts.earlierAnswers, streak: facts.streak, cravings: notes.map(\.type)) { nudge in
            language.localizer.string(nudge.key) ?? nudge.key
        }
    }
}
