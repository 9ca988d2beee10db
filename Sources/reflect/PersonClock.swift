import ReflectCore
import ReflectStore

/// Where "now" (`--now`, or the real time) falls in the person's days,
/// by their stored time zone and day boundary.
struct PersonClock {
    let settings: Settings
    let moment: DayMoment

    init(store: Store, user: String, stamps: Timestamps) throws(StoreError) {
        settings = try store.settings(user: user)
        moment = settings.dayRules.moment(stamps.current)
    }
}
