import Foundation
import ReflectCore

/// A value computed on first use, at most once, by whichever thread asks
/// first (the others wait for it).
final class Deferred<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var state: State

    private enum State {
        case ready(Value)
        case pending(@Sendable () -> Value)
    }

    init(_ value: Value) { state = .ready(value) }
    init(_ make: @escaping @Sendable () -> Value) { state = .pending(make) }

    var value: Value {
        lock.lock()
        defer { lock.unlock() }
        switch state {
        case .ready(let v):
            return v
        case .pending(let make):
            let v = make()
            state = .ready(v)
            return v
        }
    }

    /// Whether the value has been computed (for tests).
    var isReady: Bool {
        lock.lock()
        defer { lock.unlock() }
        if case .ready = state { return true }
        return false
    }
}

/// The compiled word lists of a locale chain: detector, probe, theme
/// tagger, safety gate and output filter. Either compiled at once (which
/// reports a list that does not compile), or each read from a cache file
/// when first used, falling back to compiling that part when the file's
/// section is damaged.
final class LanguageParts: Sendable {
    let detector: Deferred<DistortionDetector?>
    let probe: Deferred<SpecificityProbe?>
    let themes: Deferred<ThemeTagger>
    let safety: Deferred<SafetyGate>
    let outputFilter: Deferred<OutputFilter>

    /// Compiles everything now; an error names the locale file at fault.
    init(compiling chain: [LocaleData], gateCache: CompiledCache = .none) throws(EngineError) {
        let localizer = Localizer(chain: chain)
        detector = Deferred(try LanguageParts.detector(localizer))
        themes = Deferred(try LanguageParts.themes(localizer))
        probe = Deferred(try LanguageParts.probe(localizer))
        do {
            let layers = LanguageParts.layers(chain)
            safety = Deferred(try gateCache.gate(layers.isEmpty ? [(SafetyData(), .wordBoundary)] : layers,
                                                 name: chain.map(\.tag).joined(separator: "-")))
            outputFilter = Deferred(try LanguageParts.outputFilter(chain))
        } catch {
            throw .invalidContent(file: "locales/\(localizer.tag).yaml", line: nil, message: "safety: \(error)")
        }
    }

    /// Each part read from `file` when first used; compiled from `chain`
    /// (the lists the file was written from) when its section is damaged.
    init(chain: [LocaleData], file: CompiledLanguageFile) {
        let localizer = Localizer(chain: chain)
        detector = Deferred {
            if let d = file.detector() { return d }
            return LanguageParts.recompile { () throws(EngineError) in try LanguageParts.detector(localizer) }
        }
        themes = Deferred {
            if let t = file.themes() { return t }
            return LanguageParts.recompile { () throws(EngineError) in try LanguageParts.themes(localizer) }
        }
        // Small lists: compiling is cheaper than a section of its own.
        probe = Deferred { LanguageParts.recompile { () throws(EngineError) in try LanguageParts.probe(localizer) } }
        safety = Deferred {
            if let g = file.gate() { return g }
            return LanguageParts.recompile { () throws(EngineError) in try LanguageParts.gate(chain) }
        }
        outputFilter = Deferred {
            if let f = file.outputFilter() { return f }
            return LanguageParts.recompile { () throws(EngineError) in try LanguageParts.outputFilter(chain) }
        }
    }

    /// A part compiled again from lists that compiled when the cache file
    /// was written (the file is named by their hash), so this cannot fail
    /// unless the file was forged with a matching checksum.
    private static func recompile<T>(_ make: () throws(EngineError) -> T) -> T {
        do { return try make() } catch {
            preconditionFailure("a cached locale chain no longer compiles (\(error)); remove the cache directory (docs/safety.md)")
        }
    }

    // MARK: - Compiling

    static func layers(_ chain: [LocaleData]) -> [(data: SafetyData, mode: PhraseMatcher.Mode)] {
        // One layer per locale of the chain (the person's language and
        // English: people mix English in), each with its own lists and mode.
        chain.compactMap { locale in locale.safety.map { (data: $0, mode: locale.matching) } }
    }

    static func detector(_ localizer: Localizer) throws(EngineError) -> DistortionDetector? {
        guard let source = localizer.distortionSource, let rules = source.distortions else { return nil }
        do { return try DistortionDetector(rules, mode: source.matching) } catch {
            throw .invalidContent(file: "locales/\(source.tag).yaml", line: nil, message: "distortions: \(error)")
        }
    }

    static func themes(_ localizer: Localizer) throws(EngineError) -> ThemeTagger {
        guard let source = localizer.themeSource, let lists = source.themes else { return .none }
        do { return try ThemeTagger(lists, mode: source.matching) } catch {
            throw .invalidContent(file: "locales/\(source.tag).yaml", line: nil, message: "themes: \(error)")
        }
    }

    static func probe(_ localizer: Localizer) throws(EngineError) -> SpecificityProbe? {
        guard let source = localizer.probeSource else { return nil }
        do {
            return try SpecificityProbe(minimumCharacters: source.probe.minimumCharacters,
                                        vaguePhrases: source.probe.vaguePhrases, mode: source.matching)
        } catch {
            throw .invalidContent(file: "locales/\(source.tag).yaml", line: nil, message: "probe: \(error)")
        }
    }

    static func gate(_ chain: [LocaleData]) throws(EngineError) -> SafetyGate {
        let layers = layers(chain)
        do { return try SafetyGate(layers: layers.isEmpty ? [(SafetyData(), .wordBoundary)] : layers) } catch {
            throw .invalidContent(file: "locales/\(chain.first?.tag ?? "en").yaml", line: nil, message: "safety: \(error)")
        }
    }

    static func outputFilter(_ chain: [LocaleData]) throws(EngineError) -> OutputFilter {
        let numbers = OutputFilter.numbers(in: chain.compactMap(\.safety).flatMap { data in
            data.resources.values.flatMap { $0 } + data.helplines.values.flatMap { $0.values.flatMap { $0 } }
        })
        do { return try OutputFilter(layers: layers(chain), allowedNumbers: numbers) } catch {
            throw .invalidContent(file: "locales/\(chain.first?.tag ?? "en").yaml", line: nil, message: "safety: \(error)")
        }
    }
}
