import Foundation
import Testing
import ReflectCore
@testable import ReflectEngine

/// A fresh cache directory for one test.
private func temporaryCache() throws -> (CompiledCache, URL) {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("reflect-cache-\(UUID().uuidString)")
    return (CompiledCache(directory: dir), dir)
}

private func files(_ dir: URL) -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []).filter { $0.hasPrefix("gate-") }.sorted()
}

private let texts = ["I want to kill myself", "I would never kill myself", "k1ll mys3lf", "s u i c i d e", "killing it at work today",
                     "my husband hits me", "my husband never hits me", "what a lovely day", "I took too many pills on purpose"]

@Suite("Compiled gates cached on disk")
struct CompiledCacheTests {
    let data: SafetyData

    init() throws {
        data = try #require(try ContentLibrary(root: ContentRoot(repositoryRoot), cache: .none).locale("en")?.safety)
    }

    @Test("a cached gate gives the same verdicts as a freshly compiled one, and the second start reads it instead of compiling")
    func roundTrip() throws {
        let (cache, dir) = try temporaryCache()
        defer { try? FileManager.default.removeItem(at: dir) }
        let fresh = try SafetyGate(data)
        let first = try cache.gate([(data, .wordBoundary)], name: "en")
        #expect(files(dir).count == 1)
        let file = dir.appendingPathComponent(try #require(files(dir).first))
        let written = try Data(contentsOf: file)
        let second = try cache.gate([(data, .wordBoundary)], name: "en")
        #expect(try Data(contentsOf: file) == written, "a valid file is read, not rewritten")
        for t in texts {
            #expect(first.check(t) == fresh.check(t), "\(t)")
            #expect(second.check(t) == fresh.check(t), "\(t)")
        }
        #expect(second.check("I want to kill myself") == .crisis(.suicide))
    }

    @Test("a changed list is a new key: the old compiled gate is not used, and its file is replaced")
    func invalidatedByContent() throws {
        let (cache, dir) = try temporaryCache()
        defer { try? FileManager.default.removeItem(at: dir) }
        _ = try cache.gate([(data, .wordBoundary)], name: "en")
        let before = files(dir)
        var changed = data
        changed.phrases["suicide", default: []].append("zorblatt forever")
        #expect(try cache.gate([(data, .wordBoundary)], name: "en").check("zorblatt forever") == .ok)
        let gate = try cache.gate([(changed, .wordBoundary)], name: "en")
        #expect(gate.check("zorblatt forever") == .crisis(.suicide))
        let after = files(dir)
        #expect(after.count == 1 && after != before, "one file per locale chain, for the current lists")
        #expect(CompiledCache.key([(data, .wordBoundary)]) != CompiledCache.key([(changed, .wordBoundary)]))
        #expect(CompiledCache.key([(data, .wordBoundary)]) != CompiledCache.key([(data, .substring)]))
    }

    @Test("a truncated or corrupt cache file is ignored and replaced; verdicts stay right", arguments: ["truncate", "flip", "garbage", "empty"])
    func damaged(_ damage: String) throws {
        let (cache, dir) = try temporaryCache()
        defer { try? FileManager.default.removeItem(at: dir) }
        _ = try cache.gate([(data, .wordBoundary)], name: "en")
        let file = dir.appendingPathComponent(try #require(files(dir).first))
        let good = try Data(contentsOf: file)
        var bad = good
        switch damage {
        case "truncate": bad = good.prefix(good.count / 2)
        case "flip":
            for i in stride(from: 40, to: bad.count, by: max(1, bad.count / 50)) { bad[i] ^= 0x5A }
        case "garbage": bad = Data((0..<good.count).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        default: bad = Data()
        }
        try bad.write(to: file)
        #expect(CompiledCache.read(file) == nil, "damage is detected")
        let gate = try cache.gate([(data, .wordBoundary)], name: "en")
        let fresh = try SafetyGate(data)
        for t in texts { #expect(gate.check(t) == fresh.check(t), "\(t)") }
        #expect(try Data(contentsOf: file) == good, "the file is compiled again and rewritten whole")
    }

    @Test("a compiled gate whose checksum is right but whose contents are inconsistent is refused")
    func inconsistentPayload() throws {
        let gate = try SafetyGate(data)
        var bytes = gate.compiled()
        #expect(SafetyGate(compiled: bytes) != nil)
        #expect(SafetyGate(compiled: Array(bytes.dropLast())) == nil)
        bytes[4] = 99  // an unknown format
        #expect(SafetyGate(compiled: bytes) == nil)
    }
}
