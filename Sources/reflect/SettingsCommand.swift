import ArgumentParser
import Foundation
import ReflectCore
import ReflectStore

/// `reflect settings [get|set|reset]`: a person's stored settings.
struct SettingsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "settings",
        abstract: "Show or change your settings (time zone, day boundary, reminders, voice, celebrations, personality).",
        discussion: "Keys: " + SettingKey.allCases.map { "\($0.rawValue) (\($0.legalValues))" }.joined(separator: "; ") + ".",
        subcommands: [Get.self, Set.self, Reset.self],
        defaultSubcommand: Get.self)

    enum Format: String, ExpressibleByArgument { case text, json }

    struct Get: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Show every setting, or one.")

        @Argument(help: "One setting (default: all).")
        var key: String?

        @Option(help: "text or json.")
        var format: Format = .text

        @OptionGroup var storeOptions: StoreOptions

        func run() throws {
            let store = try storeOptions.open(.readOnly)
            let settings: Settings
            do { settings = try store.settings(user: storeOptions.user) } catch { throw failStore(error) }
            var entries = settings.entries
            if let key {
                guard let k = SettingKey(name: key) else { throw failSettings(.unknownKey(key)) }
                entries = [(k, settings.text(of: k))]
            }
            switch format {
            case .text:
                if key != nil, let only = entries.first {
                    print(only.value)
                } else {
                    // One column wide enough for the longest name (a fixed width cut parts_letter_reminder).
                    let width = (entries.map(\.key.rawValue.count).max() ?? 0) + 1
                    for e in entries { print("\(e.key.rawValue.padding(toLength: width, withPad: " ", startingAt: 0)) \(e.value)") }
                }
            case .json:
                var object: [String: String] = [:]
                for e in entries { object[e.key.rawValue] = e.value }
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
                Terminal.writeJSON(try encoder.encode(object) + Data("\n".utf8))
            }
        }
    }

    struct Set: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Change settings: KEY VALUE [KEY VALUE ...]. All are checked first; on any error nothing changes.")

        @Argument(help: "KEY VALUE pairs, e.g. day_boundary 05:00 time_zone Europe/Berlin.")
        var pairs: [String]

        @Option(help: "Injected clock, ISO-8601 with offset (default: now); recorded as when it changed.")
        var now: String?

        @OptionGroup var storeOptions: StoreOptions
        @OptionGroup var contentOptions: ContentOptions

        func validate() throws {
            guard !pairs.isEmpty, pairs.count % 2 == 0 else {
                throw ValidationError("give KEY VALUE pairs, e.g. `reflect settings set day_boundary 05:00`")
            }
        }

        func run() throws {
            let stamps = try Timestamps(now: now)
            let store = try storeOptions.open()
            do {
                var keys: [SettingKey] = []
                for i in stride(from: 0, to: pairs.count, by: 2) {
                    guard let key = SettingKey(name: pairs[i]) else { throw failSettings(.unknownKey(pairs[i])) }
                    keys.append(key)
                }
                // A stored value that cannot be read is repaired by setting it again.
                var settings = try store.settings(user: storeOptions.user, repairing: Swift.Set(keys))
                for (i, key) in keys.enumerated() {
                    do { try settings.setting(key, to: pairs[2 * i + 1]) } catch { throw failSettings(error) }
                }
                if keys.contains(.personality) {
                    let library = try contentOptions.open()
                    guard library.availablePersonalities().contains(settings.personality) else {
                        throw failSettings(.invalidValue(key: .personality, value: settings.personality,
                                                         reason: "is not a pack in \(library.root.url.path)/personalities "
                                                            + "(available: \(library.availablePersonalities().joined(separator: ", ")))"))
                    }
                }
                try store.saveSettings(settings, keys: keys, user: storeOptions.user, at: stamps.stamp())
                for key in keys { print("\(key.rawValue) = \(settings.text(of: key))") }
            } catch let e as StoreError {
                throw failStore(e)
            }
        }
    }

    struct Reset: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Put settings back to their defaults (all, or the keys given).")

        @Argument(help: "Keys to reset (default: all).")
        var keys: [String] = []

        @Option(help: "Injected clock, ISO-8601 with offset (default: now).")
        var now: String?

        @OptionGroup var storeOptions: StoreOptions

        func run() throws {
            let stamps = try Timestamps(now: now)
            var chosen: [SettingKey] = []
            for name in keys {
                guard let key = SettingKey(name: name) else { throw failSettings(.unknownKey(name)) }
                chosen.append(key)
            }
            if chosen.isEmpty { chosen = SettingKey.allCases }
            let store = try storeOptions.open()
            do {
                // Only the chosen keys are written, with their defaults.
                let settings = Settings()
                try store.saveSettings(settings, keys: chosen, user: storeOptions.user, at: stamps.stamp())
                for key in chosen { print("\(key.rawValue) = \(settings.text(of: key))") }
            } catch {
                throw failStore(error)
            }
        }
    }
}

func failSettings(_ error: SettingsError) -> ExitCode {
    Terminal.write("error: \(error.description) [\(error.code)]\n", to: .err)
    return ExitCode(1)
}
