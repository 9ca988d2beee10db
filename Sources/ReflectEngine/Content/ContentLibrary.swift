import Foundation
import ReflectCore

/// A content directory, opened: flows by id, locales by tag.
public struct ContentLibrary: Sendable {
    public let root: ContentRoot
    public var catalog: FlowCatalog { FlowCatalog(root: root, cache: cache) }

    /// Where compiled locale chains are kept between runs (``CompiledCache``).
    public var cache: CompiledCache
    private let experimentMemo = ExperimentMemo()

    public init(root: ContentRoot, cache: CompiledCache = .standard) {
        self.root = root
        self.cache = cache
    }

    public var localesDirectory: URL { root.url.appendingPathComponent("locales", isDirectory: true) }

    /// Tags that have a `locales/<tag>.yaml`, sorted.
    public func availableLocales() -> [String] {
        let files = (try? FileManager.default.contentsOfDirectory(atPath: localesDirectory.path)) ?? []
        return files.filter { $0.hasSuffix(".yaml") }.map { String($0.dropLast(5)) }.sorted()
    }

    /// `tag` as the locale files spell it: `de_DE`, `DE-de`, `pt_BR`,
    /// `de_DE.UTF-8` are `de-DE`, `pt-BR`, `de-DE`; a language alone whose
    /// only file is regional (`pt` with only `pt-BR`) is that file. A tag
    /// whose language has no file at all (`xx`, `jp`) is refused with the
    /// available tags, never run in English silently.
    /// - Throws: ``EngineError/unknownLocale(_:available:)``,
    ///   ``EngineError/noContent(looked:)`` when there is no `locales/`.
    public func resolveLocale(_ typed: String) throws(EngineError) -> String {
        let available = availableLocales()
        var isDir: ObjCBool = false
        guard FileManager.default.fileExists(atPath: localesDirectory.path, isDirectory: &isDir), isDir.boolValue else {
            throw .noContent(looked: root.url.path)
        }
        var base = typed.trimmingCharacters(in: .whitespaces)
        if let dot = base.firstIndex(where: { $0 == "." || $0 == "@" }) { base = String(base[..<dot]) }
        let parts = base.split(whereSeparator: { $0 == "_" || $0 == "-" }).map(String.init)
        guard let language = parts.first?.lowercased(), !language.isEmpty else {
            throw .unknownLocale(typed, available: available)
        }
        let canonical = ([language] + parts.dropFirst().map { $0.count == 2 ? $0.uppercased() : $0.capitalized }).joined(separator: "-")
        if let exact = available.first(where: { $0.lowercased() == canonical.lowercased() }) { return exact }
        if available.contains(language) { return canonical }
        let regional = available.filter { $0.lowercased().hasPrefix(language + "-") }
        if parts.count == 1, regional.count == 1, let only = regional.first { return only }
        guard !regional.isEmpty else { throw .unknownLocale(typed, available: available) }
        return regional.first { $0.lowercased() == canonical.lowercased() } ?? {
            // A region with no file of its own, in a language that has only regional files.
            regional[0]
        }()
    }

    /// The locale file for `tag` as written, or nil when there is none.
    /// Malformed files throw with file and line.
    public func document(_ tag: String) throws(EngineError) -> LocaleDocument? {
        try document(tag, runtime: false)
    }

    /// What the runtime shows for `tag`: for a translation, only its
    /// translated entries (judged against English); nil when there is no file.
    public func locale(_ tag: String) throws(EngineError) -> LocaleData? {
        var read = DocumentMemo(library: self, runtime: false)
        return try read.locale(tag)
    }

    /// Locale files read once per ``language(for:personality:)``: English
    /// is both the last locale of every chain and every translation's source.
    private struct DocumentMemo {
        let library: ContentLibrary
        let runtime: Bool
        /// Files already read (bytes), parsed from these bytes.
        var texts: [String: Data] = [:]
        var read: [String: LocaleDocument?] = [:]

        mutating func document(_ tag: String) throws(EngineError) -> LocaleDocument? {
            if let known = read[tag] { return known }
            let doc: LocaleDocument?
            if let bytes = texts[tag] {
                doc = try library.document(tag, bytes: bytes, runtime: runtime)
            } else {
                doc = try library.document(tag, runtime: runtime)
            }
            read[tag] = doc
            return doc
        }

        mutating func locale(_ tag: String) throws(EngineError) -> LocaleData? {
            guard let doc = try document(tag) else { return nil }
            if doc.isSource { return doc.runtimeData(source: nil) }
            return doc.runtimeData(source: try document("en"))
        }
    }

    private func document(_ tag: String, runtime: Bool) throws(EngineError) -> LocaleDocument? {
        let url = localesDirectory.appendingPathComponent("\(tag).yaml")
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        return try checked(tag, LocaleFile.load(url, displayName: "locales/\(tag).yaml", runtime: runtime))
    }

    private func document(_ tag: String, bytes: Data, runtime: Bool) throws(EngineError) -> LocaleDocument {
        let text: String
        switch ContentText.decode(bytes) {
        case .success(let decoded): text = decoded
        case .failure(let invalid): throw .invalidContent(file: "locales/\(tag).yaml", line: invalid.line, message: invalid.message)
        }
        return try checked(tag, LocaleFile.document(text, file: "locales/\(tag).yaml", runtime: runtime))
    }

    private func checked(_ tag: String, _ doc: LocaleDocument) throws(EngineError) -> LocaleDocument {
        guard doc.tag == tag else {
            throw .invalidContent(file: "locales/\(tag).yaml", line: 1, message: "declares 'locale: \(doc.tag)', expected '\(tag)'")
        }
        return doc
    }

    /// The language for `tag` along its fallback chain (`pt-BR → pt → en`);
    /// tags without a file are skipped. A personality's overrides sit above
    /// the locale strings; overrides whose placeholders differ from the
    /// string they replace are dropped (and reported by `reflect check`).
    ///
    /// `variants` are the person's experiment arms (from
    /// ``assignments(for:sticky:)`` for a new session, from the save when
    /// resuming): their strings sit above the personality's, under the same
    /// placeholder rule, and an arm with a personality replaces `id`.
    /// Arms of experiments that no longer exist are dropped (control text).
    ///
    /// Files are read for running only (no translator comments, lists
    /// checked by compiling them); when a list does not compile, the files
    /// are read again with every check, so the error names file and line.
    public func language(for tag: String, personality id: String? = nil,
                         variants assignments: [VariantAssignment] = []) throws(EngineError) -> Language {
        let tag = try resolveLocale(tag)
        do {
            return try language(for: tag, personality: id, variants: assignments, runtime: true)
        } catch {
            _ = try language(for: tag, personality: id, variants: assignments, runtime: false)
            throw error
        }
    }

    private func language(for tag: String, personality id: String?, variants assignments: [VariantAssignment],
                          runtime: Bool) throws(EngineError) -> Language {
        let (chain, parts) = try compiledChain(for: tag, runtime: runtime)
        func compatible(_ table: [String: [String: String]]) -> [String: [String: String]] {
            var out: [String: [String: String]] = [:]
            for (t, strings) in table {
                guard let base = chain.first(where: { $0.tag == t }) else { continue }
                out[t] = strings.filter { key, text in
                    base.strings[key].map { Template($0).arguments == Template(text).arguments } ?? false
                }
            }
            return out
        }
        let experiments = runnableExperiments().map(\.experiment)
        var variants = ActiveVariants(assignments: assignments, experiments: experiments)
        variants.strings = compatible(variants.strings)
        var chosen = id
        for a in variants.assignments {
            if let arm = experiments.first(where: { $0.key == a.experiment })?.variations.first(where: { $0.id == a.variation }),
               let p = arm.personality { chosen = p }
        }
        guard let chosen else { return Language(chain: chain, personality: nil, variants: variants, parts: parts) }
        var pack = try personality(chosen)
        pack.strings = compatible(pack.strings)
        return Language(chain: chain, personality: pack, variants: variants, parts: parts)
    }

    /// The chain's locale data and compiled lists. Running (`runtime`) with
    /// a cache directory: read from the cache file named by the hash of the
    /// chain's files when there is one (no YAML is parsed, nothing is
    /// compiled until used), else parsed, compiled and stored there.
    private func compiledChain(for tag: String, runtime: Bool) throws(EngineError) -> ([LocaleData], LanguageParts) {
        var read = DocumentMemo(library: self, runtime: runtime)
        let tags = Localizer.fallbackTags(for: tag)
        var files: [(tag: String, bytes: Data)] = []
        let cached = runtime && cache.directory != nil
        if cached {
            var unreadable = false
            for t in tags {
                switch ContentText.bytes(localesDirectory.appendingPathComponent("\(t).yaml")) {
                case .success(let bytes):
                    files.append((t, bytes))
                    read.texts[t] = bytes
                case .failure(.unreadable) where !FileManager.default.fileExists(atPath: localesDirectory.appendingPathComponent("\(t).yaml").path):
                    break  // no file for this tag: the chain goes on without it
                case .failure:
                    unreadable = true  // read (and refused, naming why) below, never answered from the cache
                }
            }
            if !unreadable, let file = cache.language(files: files) {
                try ContentLibrary.checkRunnable(file.chain, tag: tag)
                return (file.chain, LanguageParts(chain: file.chain, file: file))
            }
        }
        var chain: [LocaleData] = []
        for t in tags {
            if let data = try read.locale(t) { chain.append(data) }
        }
        try ContentLibrary.checkRunnable(chain, tag: tag)
        let parts = try LanguageParts(compiling: chain)
        if cached { cache.store(chain, parts: parts, files: files) }
        return (chain, parts)
    }

    /// A chain runs only with crisis lists and every string Reflect shows itself.
    private static func checkRunnable(_ chain: [LocaleData], tag: String) throws(EngineError) {
        guard chain.contains(where: { $0.safety != nil }) else {
            // Safety is not optional: without lists, crisis language would go unnoticed.
            throw .invalidContent(file: "locales/en.yaml", line: nil, message: "no locale on \(tag)'s chain has a safety section; "
                + "Reflect does not run without crisis lists (add `safety:` to locales/en.yaml, see docs/safety.md)")
        }
        // The engine's own lines (validation messages, the safety notice,
        // the terminal's hints) have no English copy in code: a chain
        // without them cannot run.
        let missing = EngineString.missing(in: chain)
        guard missing.isEmpty else {
            throw .invalidContent(file: "locales/en.yaml", line: nil, message: "no locale on \(tag)'s chain has the string"
                + (missing.count == 1 ? " " : "s ") + missing.map { "'\($0.key)'" }.joined(separator: ", ")
                + " that Reflect shows itself (add it under `strings:` in locales/en.yaml, see docs/localization.md)")
        }
    }

    // MARK: - Experiments

    public var experimentsDirectory: URL { root.url.appendingPathComponent("experiments", isDirectory: true) }

    /// Every `experiments/*.yaml`, sorted by name, each loaded or with its
    /// error (file and line).
    /// A file is parsed again only when its size or modification time
    /// changed since this library last read it (a run reads them twice:
    /// for the person's arms, then for the language).
    public func experimentFiles() -> [(name: String, result: Result<ExperimentFile, EngineError>)] {
        let files = ((try? FileManager.default.contentsOfDirectory(atPath: experimentsDirectory.path)) ?? [])
            .filter { $0.hasSuffix(".yaml") }.sorted()
        return files.map { f in
            let name = "experiments/\(f)"
            let url = experimentsDirectory.appendingPathComponent(f)
            return (name, experimentMemo.result(url) { () throws(EngineError) -> ExperimentFile in
                try ExperimentFile.load(url, displayName: name)
            })
        }
    }

    /// The experiments that load; a malformed file is left out here (its
    /// people see control text) and reported by `reflect check`.
    ///
    /// With a cache directory, they are read parsed from ``CompiledCache``
    /// when the cache holds them for exactly the files in `experiments/`
    /// now (names and bytes), else parsed and stored there
    /// (ParsedContentCache.swift): the same list either way.
    public func runnableExperiments() -> [ExperimentFile] {
        guard cache.directory != nil else { return ContentLibrary.runnable(experimentFiles()) }
        let files = ContentFileSet(directory: experimentsDirectory)
        let key = files.key("experiments", format: CompiledCache.parsedFormat)
        if let known = experimentMemo.runnable(key) { return known }
        let list: [ExperimentFile]
        if let cached = cache.experiments(files) {
            list = cached
        } else {
            list = ContentLibrary.runnable(experimentFiles())
            // Kept only when no file changed while it was parsed.
            if ContentFileSet(directory: experimentsDirectory).key("experiments", format: CompiledCache.parsedFormat) == key {
                cache.store(experiments: list, files: files)
            }
        }
        experimentMemo.remember(key, list)
        return list
    }

    private static func runnable(_ files: [(name: String, result: Result<ExperimentFile, EngineError>)]) -> [ExperimentFile] {
        var seen = Set<String>()
        return files.compactMap { try? $0.result.get() }.filter { seen.insert($0.experiment.key).inserted }
    }

    /// `prompts/` (``PromptLibrary/load(_:)``): with a cache directory,
    /// read parsed from ``CompiledCache`` when it holds exactly the files
    /// there now, else parsed (a malformed file throws, as always) and,
    /// when every file parses, stored there.
    public func prompts() throws(EngineError) -> PromptLibrary {
        guard cache.directory != nil else { return try PromptLibrary.load(root) }
        let directory = root.url.appendingPathComponent("prompts", isDirectory: true)
        let files = ContentFileSet(directory: directory)
        if let cached = cache.prompts(files) { return cached }
        let library = try PromptLibrary.load(root)
        let key = files.key("prompts", format: CompiledCache.parsedFormat)
        if ContentFileSet(directory: directory).key("prompts", format: CompiledCache.parsedFormat) == key {
            cache.store(prompts: library, files: files)
        }
        return library
    }

    /// The person's arms for a session starting in `context`: each
    /// applicable experiment's assignment, the stored (sticky) one first.
    /// `sticky` returns the variation stored for (experiment, bucket version,
    /// seed): none after the author changed the seed (which re-randomizes everyone).
    public func assignments(for context: ExperimentContext,
                            sticky: (_ experiment: String, _ bucketVersion: Int, _ seed: String) -> String? = { _, _, _ in nil })
        -> [VariantAssignment] {
        runnableExperiments().compactMap { file in
            let e = file.experiment
            guard e.applies(to: context) else { return nil }
            return e.assign(context, sticky: sticky(e.key, e.bucketVersion, e.seed))
        }
    }

    public var personalitiesDirectory: URL { root.url.appendingPathComponent("personalities", isDirectory: true) }

    /// Ids that have a `personalities/<id>.yaml`, sorted.
    public func availablePersonalities() -> [String] {
        let files = (try? FileManager.default.contentsOfDirectory(atPath: personalitiesDirectory.path)) ?? []
        return files.filter { $0.hasSuffix(".yaml") }.map { String($0.dropLast(5)) }.sorted()
    }

    public func personality(_ id: String) throws(EngineError) -> Personality {
        let url = personalitiesDirectory.appendingPathComponent("\(id).yaml")
        guard StepID.isValid(id), FileManager.default.fileExists(atPath: url.path) else {
            throw .invalidContent(file: "personalities/\(id).yaml", line: nil,
                                  message: "no personality '\(id)' (available: \(availablePersonalities().joined(separator: ", ")))")
        }
        return try Personality.load(url, displayName: "personalities/\(id).yaml")
    }
}

/// Experiment files already parsed by one library, by path, with the size
/// and modification time they had; and the runnable list last read
/// through the cache (a run asks for it twice: for the person's arms, then
/// for the language).
private final class ExperimentMemo: @unchecked Sendable {
    private let lock = NSLock()
    private var parsed: [String: (stamp: String, result: Result<ExperimentFile, EngineError>)] = [:]
    /// The runnable experiments last read through the cache, by cache key.
    private var runnable: (key: String, list: [ExperimentFile])?

    func runnable(_ key: String) -> [ExperimentFile]? {
        lock.lock()
        defer { lock.unlock() }
        return runnable?.key == key ? runnable?.list : nil
    }

    func remember(_ key: String, _ list: [ExperimentFile]) {
        lock.lock()
        runnable = (key, list)
        lock.unlock()
    }

    func result(_ url: URL, _ load: () throws(EngineError) -> ExperimentFile) -> Result<ExperimentFile, EngineError> {
        let attributes = try? FileManager.default.attributesOfItem(atPath: url.path)
        let stamp = "\(attributes?[.size] ?? "?") \((attributes?[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0)"
        lock.lock()
        if let known = parsed[url.path], known.stamp == stamp, attributes != nil {
            lock.unlock()
            return known.result
        }
        lock.unlock()
        let result = Result { () throws(EngineError) -> ExperimentFile in try load() }
        lock.lock()
        parsed[url.path] = (stamp, result)
        lock.unlock()
        return result
    }
}
