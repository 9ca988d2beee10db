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
/// command about another. Only a file whose id is not a literal is run, in
/// its own sandboxed state under the usual budget, and its failure is
/// reported for that file alone. Two files declaring the same id are an
/// error naming both, never "first by path wins".
public struct FlowCatalog: Sendable {
    public let root: ContentRoot

    public init(root: ContentRoot) { self.root = root }

    /// Resolves what a person typed after `reflect run`: a path to a `.lua`
    /// file, a flow id, or a family (`reflection`) plus a mood, which picks
    /// the family's flow that lists that mood in `moods`.
    public func source(for spec: String, mood: Mood?) throws(EngineError) -> FlowSource {
        if let mood, !spec.contains("/"), !spec.hasSuffix(".lua") {
            let prefix = spec + "."
            let entries = scanned()
            for (name, result) in entries {
                guard case .success(let flow) = result, flow.id.hasPrefix(prefix), flow.moods.contains(mood) else { continue }
                try FlowCatalog.unique(flow.id, in: entries)
                return try FlowSource.read(root.url.appendingPathComponent(name), displayName: name)
            }
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
        let entries = scanned()
        let declaring = entries.filter { if case .success(let f) = $0.result { f.id == spec } else { false } }
        try FlowCatalog.unique(spec, in: entries)
        let conventional = root.flowsDirectory.appendingPathComponent(spec.replacingOccurrences(of: ".", with: "/") + ".lua")
        if FileManager.default.fileExists(atPath: conventional.path) {
            return try FlowSource.read(conventional, displayName: root.displayName(for: conventional))
        }
        if let found = declaring.first {
            return try FlowSource.read(root.url.appendingPathComponent(found.name), displayName: found.name)
        }
        throw .flowNotFound(spec, searched: root.displayName(for: root.flowsDirectory) + "/")
    }

    /// Throws when more than one file declares `id`.
    static func unique(_ id: String, in entries: [(name: String, result: Result<FlowSummary, EngineError>)]) throws(EngineError) {
        let files = entries.compactMap { e -> String? in if case .success(let f) = e.result, f.id == id { e.name } else { nil } }
        guard files.count > 1 else { return }
        throw .invalidFlow(file: files[1], line: nil,
                           message: "flow id '\(id)' is declared by \(files.count) files (\(files.joined(separator: ", "))); give each flow its own id")
    }

    /// A flow file's id: its literal declaration, or (when the id is
    /// computed) what its top level returns, run in a state of its own.
    public static func declaredID(of source: FlowSource) throws(EngineError) -> String {
        try summary(of: source).id
    }

    static func summary(of source: FlowSource) throws(EngineError) -> FlowSummary {
        let header = FlowSourceScanner(source.text).header
        if let id = header.id, FlowDefinition.isValidID(id) {
            return FlowSummary(id: id, title: header.title, moods: header.moods ?? [], total: header.total, file: source.name)
        }
        let d = try FlowSession.definitionOnly(source)
        return FlowSummary(id: d.id, title: d.title, moods: d.moods, total: d.total, file: d.file)
    }

    /// Every flow file, with what it declares; a file that cannot be read
    /// (or, without a literal id, fails to load) is an error beside its
    /// name, and a file repeating an id already declared is an error naming
    /// both files.
    public func all() -> [(name: String, result: Result<FlowSummary, EngineError>)] {
        var firstFile: [String: String] = [:]
        return scanned().map { name, result in
            var result = result
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

    /// Every flow file with its summary, duplicates not yet marked.
    private func scanned() -> [(name: String, result: Result<FlowSummary, EngineError>)] {
        root.flowFiles().map { file in
            (file.name, Result { () throws(EngineError) -> FlowSummary in
                try FlowCatalog.summary(of: try FlowSource.read(file.url, displayName: file.name))
            })
        }
    }
}

extension FlowSession {
    /// Loads a flow file far enough to read its definition, without starting it.
    static func definitionOnly(_ source: FlowSource) throws(EngineError) -> FlowDefinition {
        do {
            let lua = try LuaState()
            defer { lua.close() }
            try FlowAPI.installDeclarations(in: lua)
            let chunk = try lua.load(source.text, as: source.name)
            return try FlowDefinition.parse(try lua.call(chunk).first, file: source.name)
        } catch var e as LuaError {
            // A memory error in top-level code carries no chunk: it is still this file's.
            if e.chunk == nil { e.chunk = source.name }
            throw .lua(e)
        } catch {
            throw .loading(error, file: source.name)
        }
    }
}
