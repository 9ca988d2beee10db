import ArgumentParser
import ReflectCore

/// `reflect run`'s usual command lines read without ArgumentParser.
///
/// ArgumentParser builds a command's parser by reflection (a `Mirror` of
/// every option group, a protocol-conformance lookup per property type):
/// about a sixth of a run's start. This reads the plain shapes only —
/// one flow, `--name value` or `--name=value` for Run's options, its three
/// flags, each at most once, values not empty — and converts values with the very
/// `init(argument:)` ArgumentParser uses. Anything else (help, `-h`, `--`,
/// a repeated or unknown option, a value starting with `-`, a value that
/// does not convert) answers nil, and the caller parses with
/// ArgumentParser, which accepts or reports it as it always has.
///
/// Contract: whenever this returns a command, `Run.parse(arguments)`
/// succeeds with the same values (RunQuickParseTests compares the two on
/// random command lines).
enum RunQuickParse {
    /// Long names taking a value, then the flags. (Plain arrays: a `Set`
    /// or `Dictionary` of a new element type costs a protocol-conformance
    /// scan at its first use, more than this whole reader.)
    private static let valued = ["content", "db", "user", "answers", "format", "now", "generator",
                                 "mood", "locale", "seed", "personality", "region"]
    private static let flags = ["resume", "new", "no-celebrations"]
    /// Every long name it reads (RunQuickParseTests holds it to Run's options).
    static var names: Set<String> { Set(valued + flags) }

    static func parse(_ arguments: [String]) -> Run? {
        var values = [String?](repeating: nil, count: valued.count)
        var flagged = [Bool](repeating: false, count: flags.count)
        var flow: String?
        var i = 0
        while i < arguments.count {
            let a = arguments[i]
            i += 1
            guard a.hasPrefix("-") else {
                guard flow == nil else { return nil }
                flow = a
                continue
            }
            guard a.hasPrefix("--"), a.utf8.count > 2 else { return nil }
            var name = String(a.dropFirst(2))
            var value: String?
            if let eq = name.firstIndex(of: "=") {
                value = String(name[name.index(after: eq)...])
                name = String(name[..<eq])
            }
            if let f = flags.firstIndex(of: name) {
                guard value == nil, !flagged[f] else { return nil }
                flagged[f] = true
                continue
            }
            guard let v = valued.firstIndex(of: name), values[v] == nil else { return nil }
            if value == nil {
                guard i < arguments.count else { return nil }
                value = arguments[i]
                i += 1
            }
            guard let value, !value.isEmpty, !value.hasPrefix("-") else { return nil }
            values[v] = value
        }
        guard let flow else { return nil }
        func value(_ name: String) -> String? { valued.firstIndex(of: name).flatMap { values[$0] } }
        func flag(_ name: String) -> Bool { flags.firstIndex(of: name).map { flagged[$0] } ?? false }

        var run = Run()
        run.flow = flow
        var content = ContentOptions()
        content.content = value("content")
        run.contentOptions = content
        var store = StoreOptions()
        store.db = value("db")
        store.user = value("user") ?? "default"
        run.storeOptions = store
        var drive = DriveOptions()
        drive.answers = value("answers")
        drive.now = value("now")
        drive.format = .text
        if let v = value("format") {
            guard let format = Run.OutputFormat(argument: v) else { return nil }
            drive.format = format
        }
        run.drive = drive
        var generation = GeneratorOptions()
        generation.generator = nil
        if let v = value("generator") {
            guard let provider = GeneratorOptions.Provider(argument: v) else { return nil }
            generation.generator = provider
        }
        run.generation = generation
        run.mood = nil
        if let v = value("mood") {
            guard let mood = Mood(argument: v) else { return nil }
            run.mood = mood
        }
        run.locale = value("locale") ?? "en"
        run.seed = nil
        if let v = value("seed") {
            guard let seed = UInt64(argument: v) else { return nil }
            run.seed = seed
        }
        run.personality = value("personality")
        run.region = value("region")
        run.resume = flag("resume")
        run.startNew = flag("new")
        run.noCelebrations = flag("no-celebrations")
        return run
    }
}
