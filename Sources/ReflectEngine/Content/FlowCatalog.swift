import Foundation
import LuaHost
import ReflectCore

/// Finds flows under a content root, by id or by file path.
///
/// An id `a.b` is looked up first at `flows/a/b.lua`, then by loading every
/// flow file and reading the id it declares (files that fail to load are
/// skipped here; `reflect check` reports them).
public struct FlowCatalog: Sendable {
    public let root: ContentRoot

    public init(root: ContentRoot) { self.root = root }

    /// Resolves what a person typed after `reflect run`: a path to a `.lua`
    /// file, a flow id, or a family (`reflection`) plus a mood, which picks
    /// the family's flow that lists that mood in `moods`.
    public func source(for spec: String, mood: Mood?) throws(EngineError) -> FlowSource {
        if let mood, !spec.contains("/"), !spec.hasSuffix(".lua") {
            let prefix = spec + "."
            for (name, result) in all() {
                guard case .success(let def) = result, def.id.hasPrefix(prefix), def.moods.contains(mood) else { continue }
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
        let conventional = root.flowsDirectory.appendingPathComponent(spec.replacingOccurrences(of: ".", with: "/") + ".lua")
        if FileManager.default.fileExists(atPath: conventional.path) {
            return try FlowSource.read(conventional, displayName: root.displayName(for: conventional))
        }
        for file in root.flowFiles() {
            guard let source = try? FlowSource.read(file.url, displayName: file.name) else { continue }
            if (try? FlowCatalog.declaredID(of: source)) == spec { return source }
        }
        throw .flowNotFound(spec, searched: root.displayName(for: root.flowsDirectory) + "/")
    }

    /// Runs a flow file's top level (not its `run`) and returns its id.
    public static func declaredID(of source: FlowSource) throws(EngineError) -> String {
        try FlowSession.definitionOnly(source).id
    }

    /// Every flow file that loads, with its definition; files that fail are
    /// returned as errors beside them.
    public func all() -> [(name: String, result: Result<FlowDefinition, EngineError>)] {
        root.flowFiles().map { file in
            let result = Result { () throws(EngineError) -> FlowDefinition in
                try FlowSession.definitionOnly(try FlowSource.read(file.url, displayName: file.name))
            }
            return (file.name, result)
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
        } catch {
            throw .loading(error, file: source.name)
        }
    }
}
