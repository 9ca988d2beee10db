import Foundation

/// Synthetic people and sessions with a known effect, so an author can check
/// what the report says before real people see a variation
/// (`reflect experiments simulate`).
///
/// Model, per session: pre-intensity uniform in 4…9; intensity change = 1 +
/// `effect` (every arm but the control) + the person's own offset + normal
/// noise with `noise` standard deviation, rounded; post = pre − change,
/// clamped to 0…10. The session finishes with probability `completion`
/// (an unfinished one has no post). Each person has 1…`sessionsPerPerson`
/// exposed sessions (uniform) and an offset drawn once, normal with
/// `personNoise` standard deviation: people who differ from each other,
/// whose sessions are therefore not independent. With the defaults (one
/// session, no offset) the draws are exactly those of one session each. Arms come from the experiment's real
/// assignment (GrowthBook hashing of the simulated ids), or from `split`
/// when given (shares per arm, to simulate a broken split).
public struct ExperimentSimulation: Sendable {
    public struct Settings: Sendable {
        public var people: Int
        public var effect: Double
        public var completion: Double
        public var noise: Double
        public var split: [Double]?
        public var seed: UInt64
        /// The most exposed sessions one person has (each has 1…this many).
        public var sessionsPerPerson: Int
        /// Standard deviation of each person's own offset on intensity change.
        public var personNoise: Double

        public init(people: Int = 800, effect: Double = 0, completion: Double = 1, noise: Double = 1.5, split: [Double]? = nil,
                    seed: UInt64 = 1, sessionsPerPerson: Int = 1, personNoise: Double = 0) {
            self.people = people
            self.effect = effect
            self.completion = completion
            self.noise = noise
            self.split = split
            self.seed = seed
            self.sessionsPerPerson = max(1, sessionsPerPerson)
            self.personNoise = personNoise
        }
    }

    public struct Session: Sendable, Equatable {
        public var user: String
        public var variation: String
        public var pre: Int
        /// Nil when the session did not finish.
        public var post: Int?

        public init(user: String, variation: String, pre: Int, post: Int?) {
            self.user = user
            self.variation = variation
            self.pre = pre
            self.post = post
        }
    }

    public let experiment: Experiment
    public let settings: Settings

    public init(experiment: Experiment, settings: Settings) {
        self.experiment = experiment
        self.settings = settings
    }

    /// The sessions of run `run` (each run has its own people and draws).
    public func sessions(run: Int = 0) -> [Session] {
        var rng = SeededRandom(seed: settings.seed &+ UInt64(run) &* 0x9E37_79B9_7F4A_7C15)
        let ranges = experiment.bucketRanges
        var out: [Session] = []
        out.reserveCapacity(settings.people)
        for i in 0..<settings.people {
            let user = "sim-\(settings.seed)-\(run)-\(i)"
            let index: Int?
            if let split = settings.split, split.count == experiment.variations.count {
                let total = split.reduce(0, +)
                var u = Double.random(in: 0..<1, using: &rng) * total
                var chosen = split.count - 1
                for (k, share) in split.enumerated() {
                    if u < share { chosen = k; break }
                    u -= share
                }
                index = chosen
            } else {
                index = GrowthBookHash.hash(seed: experiment.seed, value: user, version: experiment.hashVersion)
                    .flatMap { GrowthBookHash.chooseVariation($0, ranges: ranges) }
            }
            var pre = Int(rng.integer(in: 4...9))
            var noise = ExperimentSimulation.normal(&rng) * settings.noise
            guard let index else { continue } // outside the experiment: never exposed
            let count = settings.sessionsPerPerson > 1 ? Int(rng.integer(in: 1...Int64(settings.sessionsPerPerson))) : 1
            let offset = settings.personNoise > 0 ? ExperimentSimulation.normal(&rng) * settings.personNoise : 0
            for k in 0..<count {
                if k > 0 {
                    pre = Int(rng.integer(in: 4...9))
                    noise = ExperimentSimulation.normal(&rng) * settings.noise
                }
                let change = (1 + (index > 0 ? settings.effect : 0) + offset + noise).rounded()
                let finished = Double.random(in: 0..<1, using: &rng) < settings.completion
                let post = finished ? min(10, max(0, pre - Int(change))) : nil
                out.append(Session(user: user, variation: experiment.variations[index].id, pre: pre, post: post))
            }
        }
        return out
    }

    /// A standard normal draw (Box–Muller).
    static func normal(_ rng: inout SeededRandom) -> Double {
        let u1 = Double.random(in: Double.ulpOfOne..<1, using: &rng)
        let u2 = Double.random(in: 0..<1, using: &rng)
        return (-2 * log(u1)).squareRoot() * cos(2 * Double.pi * u2)
    }
}
