import Foundation
import LuaHost
import ReflectCore

/// What the catalog knows about a flow file without starting it.
public struct FlowSummary: Sendable, Equatable {
    public var id: String
    public var title: String?
    public var moods: [Mood]
    public var total: Int?
    /// The file it came from (display name).
    public var file: String
}

/// Finds flows under a content root, by id or by file path.
///
/// Flow files are identified by reading their `flow { id = "...", ... }`
/// declaration as text (``FlowSourceScanner``), so listing and lookup run
/// no flow code: one file's hostile top level cannot slow, break or crash a
/// command about another. A file whose id is not a literal is run, in its
/// own sandboxed state under the usual budget, only when listing or when no
/// literal declaration matched a lookup; its failure is reported for that
/// file alone. Two files declaring the same id are an error naming both,
/// never "first by path wins" (for computed ids, `reflect check` reports
/// it as R010).
public struct FlowCatalog: Sendable {
    public let root: ContentRoot
    /// Where the scan of `flows/` is kept between runs (none: every file
    /// is scanned at every lookup).
    public let cache: CompiledCache

    public init(root: ContentRoot, cache: CompiledCache = .none) {
        self.root = root
        self.cache = cache
    }

    /// Resolves what a person typed after `reflect run`: a path to a `.lua`
    /// file, a flow id, or a family (`reflection`) plus a mood, which picks
    /// the family's flow that lists that mood in `moods`.
    public func source(for spec: String, mood: Mood?) throws(EngineError) -> FlowSource {
        if let mood, !spec.contains("/"), !spec.hasSuffix(".lua") {
            let prefix = spec + "."
            let scans = scanned()
            func fits(_ f: FlowSummary) -> Bool { f.id.hasPrefix(prefix) && f.moods.contains(mood) }
            if let hit = scans.first(where: { $0.scan.summary.map(fits) == true }), let flow = hit.scan.summary {
                try FlowCatalog.unique(flow.id, in: scans)
                return try FlowSource.read(root.url.appendingPathComponent(hit.name), displayName: hit.name)
            }
            if let hit = computed(in: scans, where: fits) { return hit }
            if !spec.contains(".") {
                throw .flowNotFound("\(spec) for mood '\(mood.rawValue)'", searched: root.displayName(for: root.flowsDirectory) + "/")
            }
        }
        return try source(for: spec)
    }

    public func source(for spec: String) throws(EngineError) -> FlowSource {
        if spec.hasSuffix(".lua") || spec.contains("/") {
            let url = URL(fileURLWithPath: spec, relativeTo: URL(fileURLWithPath: FileManager.default.currentDirectoryPath))
            guard FileManager.default.fileExists(atPath: url.path) else {
                throw .flowNotFound(spec, searched: spec)
            }
            return try FlowSource.read(url, displayName: root.displayName(for: url, asTyped: spec))
        }
        let scans = scanned()
        try FlowCatalog.unique(spec, in: scans)
        let conventional = root.flowsDirectory.appendingPathComponent(spec.replacingOccurrences(of: ".", with: "/") + ".lua")
        if FileManager.default.fileExists(atPath: conventional.path) {
            return try FlowSource.read(conventional, displayName: root.displayName(for: conventional))
        }
        if let hit = scans.first(where: { $0.scan.summary?.id == spec }) {
            return try FlowSource.read(root.url.appendingPathComponent(hit.name), displayName: hit.name)
        }
        if let hit = computed(in: scans, where: { $0.id == spec }) { return hit }
        throw .flowNotFound(spec, searched: root.displayName(for: root.flowsDirectory) + "/", hint: FlowCatalog.hint(for: spec, in: scans))
    }

    /// What was probably meant by an id that names no flow: a family
    /// (`reflection`) needs `--mood`; a typo gets the nearest id, or the
    /// nearest family (`reflektion` → `reflection` and its `--mood`).
    static func hint(for spec: String, in scans: [(name: String, scan: Scan)]) -> String? {
        let summaries = scans.compactMap { $0.scan.summary }
        let family = summaries.filter { $0.id.hasPrefix(spec + ".") }
        if !family.isEmpty {
            let moods = Set(family.flatMap(\.moods)).map(\.rawValue).sorted()
            if !moods.isEmpty {
                return "'\(spec)' is a family of flows chosen by mood: add --mood (\(moods.joined(separator: ", ")))"
            }
            return "did you mean " + family.map { "'\($0.id)'" }.sorted().joined(separator: " or ") + "?"
        }
        let ids = summaries.map(\.id)
        let families = Set(ids.compactMap { id in id.lastIndex(of: ".").map { String(id[..<$0]) } }).subtracting(ids)
        guard let near = Suggestion.nearest(to: spec, among: ids + families.sorted()) else { return nil }
        guard families.contains(near) else { return "did you mean '\(near)'?" }
        let members = summaries.filter { $0.id.hasPrefix(near + ".") }
        let moods = Set(members.flatMap(\.moods)).map(\.rawValue).sorted()
        if !moods.isEmpty {
            return "did you mean '\(near)', a family of flows chosen by mood? add --mood (\(moods.joined(separator: ", ")))"
        }
        return "did you mean " + members.map { "'\($0.id)'" }.sorted().joined(separator: " or ") + "?"
    }

    /// Throws when more than one file declares `id` literally.
    static func unique(_ id: String, in scans: [(name: String, scan: Scan)]) throws(EngineError) {
        let files = scans.compactMap { $0.scan.summary?.id == id ? $0.name : nil }
        guard files.count > 1 else { return }
        throw .invalidFlow(file: files[1], line: nil,
                           message: "flow id '\(id)' is declared by \(files.count) files (\(files.joined(separator: ", "))); give each flow its own id")
    }

    /// The first file with a computed id that fits, each run in its own
    /// state only when no literal declaration matched; failures skip the file.
    private func computed(in scans: [(name: String, scan: Scan)], where fits: (FlowSummary) -> Bool) -> FlowSource? {
        for case (_, .computed(let source)) in scans {
            if let flow = try? FlowCatalog.summary(running: source), fits(flow) { return source }
        }
        return nil
    }

    /// A flow file's id: its literal declaration, or (when the id is
    /// computed) what its top level returns, run in a state of its own.
    public static func declaredID(of source: FlowSource) throws(EngineError) -> String {
        try summary(of: source).id
    }

    package static func summary(of source: FlowSource) throws(EngineError) -> FlowSummary {
        if let flow = literalSummary(of: source) { return flow }
        return try summary(running: source)
    }

    private static func literalSummary(of source: FlowSource) -> FlowSummary? {
        let header = FlowSourceScanner(source.text).header
        // Anything the definition would refuse is left to running the file, which reports it.
        guard let id = header.id, FlowDefinition.isValidID(id), (header.title?.utf8.count ?? 0) <= SessionLimits.maxOptionTextBytes
        else { return nil }
        return FlowSummary(id: id, title: header.title, moods: header.moods ?? [], total: header.total, file: source.name)
    }

    private static func summary(running source: FlowSource) throws(EngineError) -> FlowSummary {
        let d = try FlowSession.definitionOnly(source)
        return FlowSummary(id: d.id, title: d.title, moods: d.moods, total: d.total, file: d.file)
    }

    /// Every flow file, with what it declares; a file that cannot be read
    /// (or, without a literal id, fails to load) is an error beside its
    /// name, and a file repeating an id already declared is an error naming
    /// both files.
    public func all() -> [(name: String, result: Result<FlowSummary, EngineError>)] {
        var firstFile: [String: String] = [:]
        return scanned().map { name, scan in
            var result: Result<FlowSummary, EngineError>
            switch scan {
            case .literal(let flow): result = .success(flow)
            case .computed(let source): result = Result { () throws(EngineError) -> FlowSummary in try FlowCatalog.summary(running: source) }
            case .failed(let error): result = .failure(error)
            }
            if case .success(let flow) = result {
                if let first = firstFile[flow.id] {
                    result = .failure(.invalidFlow(file: name, line: nil,
                                                   message: "flow id '\(flow.id)' is also declared in \(first); give each flow its own id"))
                } else {
                    firstFile[flow.id] = name
                }
            }
            return (name, result)
        }
    }

    /// A flow file as read, before anything runs.
    enum Scan {
        /// Its literal `flow { id = "...", ... }`.
        case literal(FlowSummary)
        /// Its id is computed: only running it tells.
        case computed(FlowSource)
        /// It cannot be read.
        case failed(EngineError)

        var summary: FlowSummary? { if case .literal(let f) = self { f } else { nil } }
    }

    /// Every flow file, read as text; no flow code runs.
    ///
    /// With a cache directory, when every file declares its flow literally,
    /// the declarations are kept in ``CompiledCache`` under a hash of every
    /// flow file's name and bytes and of the `celebrations.lua` beside each
    /// (ParsedContentCache.swift); the next scan of the same bytes reads
    /// them from there instead of decoding and scanning every file.
    private func scanned() -> [(name: String, scan: Scan)] {
        let files = root.flowFiles()
        guard cache.directory != nil else { return files.map(FlowCatalog.scan) }
        let bytes = FlowFileSet(files)
        if let summaries = cache.flowSummaries(bytes), summaries.count == files.count {
            return zip(files, summaries).map { ($0.name, .literal($1)) }
        }
        let scans = files.map(FlowCatalog.scan)
        let literal = scans.compactMap { $0.scan.summary }
        // Kept only when every file is literal and none changed while it was scanned.
        if literal.count == scans.count, FlowFileSet(files).key == bytes.key {
            cache.store(flowSummaries: literal, files: bytes)
        }
        return scans
    }

    private static func scan(_ file: (url: URL, name: String)) -> (name: String, scan: Scan) {
        switch Result(catching: { () throws(EngineError) in try FlowSource.read(file.url, displayName: file.name) }) {
        case .success(let source): (file.name, FlowCatalog.literalSummary(of: source).map(Scan.literal) ?? .computed(source))
        case .failure(let error): (file.name, .failed(error))
        }
    }
}

extension FlowSession {
    /// Loads a flow file far enough to read its definition, without starting it.
    package static func definitionOnly(_ source: FlowSource) throws(EngineError) -> FlowDefinition {
        do {
            let lua = try LuaState()
            defer { lua.close() }
            try FlowAPI.installDeclarations(in: lua)
            let chunk = try lua.load(source.text, as: source.name)
            return try FlowDefinition.parse(try lua.callTopLevel(chunk).first, file: source.name)
        } catch {
            throw .loading(error, file: source.name)
        }
    }
}
