import Foundation
import ReflectCore
#if canImport(Glibc)
import Glibc
#endif

// Experiment and prompt files kept parsed in ``CompiledCache`` between runs,
// so that a run's first prompt parses no YAML at all (Yams' first document
// alone costs more than the rest of reading the content); and the flow
// catalog's scan (each flow file's literal declaration), so that finding
// `reflection --mood bad` does not decode and scan every flow file.
//
// - **Key**: a hash of every `<dir>/*.yaml` file's name and bytes (sorted by
//   name, as the parsers read them), the cached form's format and the
//   running executable's identity. Adding, removing or editing a file, or
//   installing a new build, makes a new key: a stale parse is never used.
// - **What is kept**: only what parsing the same bytes gives. The runnable
//   experiments (a malformed file is left out of them, as when parsing);
//   the prompt library only when every prompt file parses (a broken file
//   is parsed, and reported, on every run, exactly as without a cache);
//   the flow declarations only when every flow file declares its id
//   literally (a computed id or an unreadable file is scanned every time).
// - **Safe against damage**: the file carries its length and a checksum
//   (``CompiledCache/read(_:)``), the key it was written under, and every
//   field is bounds-checked when read; a damaged, truncated or foreign file
//   is ignored and replaced by a fresh parse.

/// The `*.yaml` files of one content directory, read whole, sorted by name.
struct ContentFileSet: Sendable {
    struct File: Sendable {
        let name: String
        /// nil when it cannot be read (a directory, no permission).
        let bytes: [UInt8]?
    }

    let files: [File]

    /// The directory's `*.yaml` files; an empty set when the directory is
    /// missing or cannot be listed (the parsers then see no files either).
    init(directory: URL) {
        var names: [String] = []
        if let dir = opendir(directory.path) {
            while let entry = readdir(dir) {
                let name = withUnsafePointer(to: entry.pointee.d_name) { p in
                    p.withMemoryRebound(to: CChar.self, capacity: Int(NAME_MAX) + 1) { String(cString: $0) }
                }
                if name.hasSuffix(".yaml") { names.append(name) }
            }
            closedir(dir)
        }
        names.sort()
        files = names.map { File(name: $0, bytes: ContentFileSet.read(directory.appendingPathComponent($0).path)) }
    }

    /// The whole of a regular file of at most ``ContentText/maxFileBytes``,
    /// or nil. Opened without blocking: opening a named pipe would wait
    /// for a writer forever; it is refused by the check that follows.
    static func read(_ path: String) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG else { return nil }
        var out: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: max(Int(st.st_size) + 1, 4096))
        while true {
            let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n < 0 { return nil }
            if n == 0 { return out }
            out.append(contentsOf: chunk[0..<n])
            if out.count > ContentText.maxFileBytes { return nil }
        }
    }

    /// The cache key of this set for a cached form `kind` of `format`.
    func key(_ kind: String, format: UInt32) -> String {
        var h = ContentHash()
        h.add("reflect.\(kind).\(format)\u{1F}\(CompiledCache.executableIdentity)\u{1F}")
        for f in files {
            h.add(f.name)
            if let bytes = f.bytes {
                h.add("\u{1F}\(bytes.count)\u{1F}")
                h.add(bytes)
            } else {
                h.add("\u{1F}unreadable\u{1F}")
            }
            h.add("\u{1E}")
        }
        return h.hex
    }
}

/// The flow files of a catalog (``ContentRoot/flowFiles()``) read whole,
/// with the `celebrations.lua` of each of their directories (reading a
/// flow reads it too): what a catalog scan depends on.
struct FlowFileSet: Sendable {
    /// The cache key (kind `flows`): names and bytes of every file, in order.
    let key: String

    init(_ files: [(url: URL, name: String)]) {
        var h = ContentHash()
        h.add("reflect.flows.\(CompiledCache.parsedFormat)\u{1F}\(CompiledCache.executableIdentity)\u{1F}")
        var directories: [String] = []
        for file in files {
            h.add(file.name)
            FlowFileSet.add(ContentFileSet.read(file.url.path), to: &h)
            let dir = file.url.deletingLastPathComponent().path
            if !directories.contains(dir) { directories.append(dir) }
        }
        for dir in directories {
            let rules = dir + "/" + FlowSource.celebrationRulesFile
            h.add("\u{1D}\(dir)")
            if access(rules, F_OK) == 0 {
                FlowFileSet.add(ContentFileSet.read(rules), to: &h)
            } else {
                h.add("\u{1F}absent\u{1E}")
            }
        }
        key = h.hex
    }

    private static func add(_ bytes: [UInt8]?, to h: inout ContentHash) {
        if let bytes {
            h.add("\u{1F}\(bytes.count)\u{1F}")
            h.add(bytes)
        } else {
            h.add("\u{1F}unreadable\u{1F}")
        }
        h.add("\u{1E}")
    }
}

extension CompiledCache {
    /// Bumped whenever the cached form of experiments, prompts or flow declarations changes.
    static let parsedFormat: UInt32 = 1

    /// The runnable experiments parsed from exactly `files`, when a cache
    /// file for them is on disk and intact.
    func experiments(_ files: ContentFileSet) -> [ExperimentFile]? {
        parsed("experiments", files) { r -> [ExperimentFile]? in
            guard let n = r.count(minimumSize: 8) else { return nil }
            var out: [ExperimentFile] = []
            for _ in 0..<n {
                guard let e = ExperimentFile(reading: &r) else { return nil }
                out.append(e)
            }
            return out
        }
    }

    func store(experiments: [ExperimentFile], files: ContentFileSet) {
        store("experiments", files) { w in
            w.u32(UInt32(experiments.count))
            for e in experiments { e.write(to: &w) }
        }
    }

    /// The prompt library parsed from exactly `files`, when a cache file
    /// for them is on disk and intact.
    func prompts(_ files: ContentFileSet) -> PromptLibrary? {
        parsed("prompts", files) { PromptLibrary(reading: &$0) }
    }

    func store(prompts: PromptLibrary, files: ContentFileSet) {
        store("prompts", files) { prompts.write(to: &$0) }
    }

    /// The literal declarations of exactly the flow files `files` (one per
    /// file, in their order), when a cache file for them is on disk and intact.
    func flowSummaries(_ files: FlowFileSet) -> [FlowSummary]? {
        parsed("flows", key: files.key) { r -> [FlowSummary]? in
            guard let n = r.count(minimumSize: 14) else { return nil }
            var out: [FlowSummary] = []
            for _ in 0..<n {
                guard let id = r.string(), let title = r.optionalString(), let names = r.strings(), let hasTotal = r.bool() else { return nil }
                var total: Int?
                if hasTotal {
                    guard let t = r.int() else { return nil }
                    total = t
                }
                guard let file = r.string() else { return nil }
                var moods: [Mood] = []
                for m in names {
                    guard let mood = Mood(rawValue: m) else { return nil }
                    moods.append(mood)
                }
                out.append(FlowSummary(id: id, title: title, moods: moods, total: total, file: file))
            }
            return out
        }
    }

    func store(flowSummaries: [FlowSummary], files: FlowFileSet) {
        store("flows", key: files.key) { w in
            w.u32(UInt32(flowSummaries.count))
            for f in flowSummaries {
                w.string(f.id)
                w.optionalString(f.title)
                w.strings(f.moods.map(\.rawValue))
                w.bool(f.total != nil)
                if let total = f.total { w.int(total) }
                w.string(f.file)
            }
        }
    }

    private func parsed<T>(_ kind: String, _ files: ContentFileSet, _ decode: (inout CompiledReader) -> T?) -> T? {
        parsed(kind, key: files.key(kind, format: CompiledCache.parsedFormat), decode)
    }

    private func parsed<T>(_ kind: String, key: String, _ decode: (inout CompiledReader) -> T?) -> T? {
        guard let directory else { return nil }
        guard let payload = CompiledCache.read(directory.appendingPathComponent("\(kind)-\(key).bin")) else { return nil }
        return payload.withUnsafeBytes { raw -> T? in
            var r = CompiledReader(raw)
            // A file renamed to another key's name is not used.
            guard let written = r.string(), written == key, let value = decode(&r), r.atEnd else { return nil }
            return value
        }
    }

    private func store(_ kind: String, _ files: ContentFileSet, _ encode: (inout CompiledWriter) -> Void) {
        store(kind, key: files.key(kind, format: CompiledCache.parsedFormat), encode)
    }

    private func store(_ kind: String, key: String, _ encode: (inout CompiledWriter) -> Void) {
        guard let directory else { return }
        var w = CompiledWriter()
        w.string(key)
        encode(&w)
        CompiledCache.write(w.bytes, to: directory.appendingPathComponent("\(kind)-\(key).bin"), replacing: "\(kind)-", in: directory)
    }
}

// MARK: - Cached forms

extension ExperimentFile {
    func write(to w: inout CompiledWriter) {
        let e = experiment
        w.string(e.key)
        w.string(e.seed)
        w.int(e.hashVersion)
        w.string(e.status.rawValue)
        w.optionalString(e.startDay)
        w.optionalString(e.endDay)
        w.int(e.bucketVersion)
        w.u32(UInt32(e.variations.count))
        for v in e.variations {
            w.string(v.id)
            w.u32(UInt32(v.strings.count))
            for tag in v.strings.keys.sorted() {
                w.string(tag)
                w.stringMap(v.strings[tag] ?? [:])
            }
            w.optionalString(v.personality)
        }
        w.bool(e.weights != nil)
        if let weights = e.weights {
            w.u32(UInt32(weights.count))
            for x in weights { w.double(x) }
        }
        w.double(e.coverage)
        w.strings(e.targeting.flows)
        w.strings(e.targeting.locales)
        w.strings(e.targeting.moods.map(\.rawValue))
        w.bool(e.namespace != nil)
        if let ns = e.namespace {
            w.string(ns.id)
            w.double(ns.start)
            w.double(ns.end)
        }
        w.string(file)
        w.optionalInt(keyLine)
        w.optionalInt(weightsLine)
        w.optionalInt(namespaceLine)
        w.intMap(variationLines)
        w.intMap(stringLines)
        w.intMap(personalityLines)
    }

    init?(reading r: inout CompiledReader) {
        guard let key = r.string(), let seed = r.string(), let hashVersion = r.int(),
              let status = r.string().flatMap(Experiment.Status.init(rawValue:)),
              let startDay = r.optionalString(), let endDay = r.optionalString(), let bucketVersion = r.int(),
              let nv = r.count(minimumSize: 9) else { return nil }
        var variations: [ExperimentVariation] = []
        for _ in 0..<nv {
            guard let id = r.string(), let nt = r.count(minimumSize: 8) else { return nil }
            var strings: [String: [String: String]] = [:]
            for _ in 0..<nt {
                guard let tag = r.string(), let map = r.stringMap() else { return nil }
                strings[tag] = map
            }
            guard let personality = r.optionalString() else { return nil }
            variations.append(ExperimentVariation(id: id, strings: strings, personality: personality))
        }
        guard let hasWeights = r.bool() else { return nil }
        var weights: [Double]?
        if hasWeights {
            guard let n = r.count(minimumSize: 8) else { return nil }
            var list: [Double] = []
            for _ in 0..<n {
                guard let x = r.double() else { return nil }
                list.append(x)
            }
            weights = list
        }
        guard let coverage = r.double(), let flows = r.strings(), let locales = r.strings(), let moodNames = r.strings(),
              let hasNamespace = r.bool() else { return nil }
        var moods: [Mood] = []
        for m in moodNames {
            guard let mood = Mood(rawValue: m) else { return nil }
            moods.append(mood)
        }
        var namespace: Namespace?
        if hasNamespace {
            guard let id = r.string(), let start = r.double(), let end = r.double() else { return nil }
            namespace = Namespace(id: id, start: start, end: end)
        }
        guard let file = r.string(), let keyLine = r.optionalInt(), let weightsLine = r.optionalInt(),
              let namespaceLine = r.optionalInt(), let variationLines = r.intMap(), let stringLines = r.intMap(),
              let personalityLines = r.intMap() else { return nil }
        self.init(experiment: Experiment(key: key, seed: seed, hashVersion: hashVersion, status: status, startDay: startDay,
                                         endDay: endDay, bucketVersion: bucketVersion, variations: variations, weights: weights,
                                         coverage: coverage, targeting: ExperimentTargeting(flows: flows, locales: locales, moods: moods),
                                         namespace: namespace),
                  file: file, keyLine: keyLine, weightsLine: weightsLine, namespaceLine: namespaceLine,
                  variationLines: variationLines, stringLines: stringLines, personalityLines: personalityLines)
    }
}

extension PromptLibrary {
    func write(to w: inout CompiledWriter) {
        w.u32(UInt32(templates.count))
        for t in templates {
            w.string(t.name)
            w.int(t.version)
            w.string(t.system)
            w.string(t.user)
            w.string(t.file)
        }
        w.listMap(advice)
        w.u32(UInt32(perspective.count))
        for tag in perspective.keys.sorted() {
            w.string(tag)
            w.stringMap(perspective[tag] ?? [:])
        }
    }

    init?(reading r: inout CompiledReader) {
        guard let n = r.count(minimumSize: 24) else { return nil }
        var templates: [PromptTemplate] = []
        for _ in 0..<n {
            guard let name = r.string(), let version = r.int(), let system = r.string(), let user = r.string(),
                  let file = r.string() else { return nil }
            templates.append(PromptTemplate(name: name, version: version, system: system, user: user, file: file))
        }
        guard let advice = r.listMap(), let np = r.count(minimumSize: 8) else { return nil }
        var perspective: [String: [String: String]] = [:]
        for _ in 0..<np {
            guard let tag = r.string(), let map = r.stringMap() else { return nil }
            perspective[tag] = map
        }
        self.init(templates: templates, advice: advice, perspective: perspective)
    }
}

private extension CompiledWriter {
    mutating func optionalInt(_ v: Int?) {
        bool(v != nil)
        if let v { int(v) }
    }

    mutating func intMap(_ map: [String: Int]) {
        u32(UInt32(map.count))
        for k in map.keys.sorted() {
            string(k)
            int(map[k] ?? 0)
        }
    }
}

private extension CompiledReader {
    mutating func optionalInt() -> Int?? {
        guard let present = bool() else { return nil }
        if !present { return .some(nil) }
        guard let v = int() else { return nil }
        return .some(v)
    }

    mutating func intMap() -> [String: Int]? {
        guard let n = count(minimumSize: 12) else { return nil }
        var out: [String: Int] = [:]
        for _ in 0..<n {
            guard let k = string(), let v = int() else { return nil }
            out[k] = v
        }
        return out
    }
}
