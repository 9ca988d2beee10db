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
    /// file, or a flow id.
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
        let session = try FlowSession.definitionOnly(source)
        return session.id
    }
}

extension FlowSession {
    /// Loads a flow file far enough to read its definition, without starting it.
    static func definitionOnly(_ source: FlowSource) throws(EngineError) -> FlowDefinition {
        final class NoHost: FlowAPI.Host {
            let clock = FlowClock(date: Date(timeIntervalSince1970: 0), utcOffsetSeconds: 0)
            func prompt(_ step: StepID, kind: PromptKind, text: String) throws(LuaHostError) {}
            func random(in range: ClosedRange<Int64>) -> Int64 { range.lowerBound }
        }
        let host = NoHost()
        do {
            let lua = try LuaState()
            defer { lua.close() }
            try FlowAPI.install(in: lua, host: host)
            let chunk = try lua.load(source.text, as: source.name)
            return try FlowDefinition.parse(try lua.call(chunk).first, file: source.name)
        } catch let e as LuaError {
            throw .lua(e)
        } catch let e as EngineError {
            throw e
        } catch {
            throw .invalidFlow(file: source.name, line: nil, message: "\(error)")
        }
    }
}
