import Foundation
import Testing
import ReflectCore
@testable import ReflectEngine

/// Issue 22: labelled thoughts written natively in each of the seven
/// locales (Tests/Fixtures/distortions/{tuned,heldback}/<tag>.tsv), measured
/// with that locale's own rules. The held-back files were written before the
/// rules were tuned and never used to tune them (docs/distortions.md).
@Suite("Distortion fixtures, per locale")
struct DistortionFixtureTests {
    static let locales = ["en", "de", "es", "fr", "ja", "ko", "pt-BR"]

    static func items(_ set: String, _ tag: String) throws -> [(line: Int, text: String, type: DistortionType)] {
        let url = repositoryRoot.appendingPathComponent("Tests/Fixtures/distortions/\(set)/\(tag).tsv")
        return try DistortionReport.parse(String(contentsOf: url, encoding: .utf8))
    }

    static func report(_ set: String, _ tag: String) throws -> DistortionReport {
        let language = try ContentLibrary(root: ContentRoot(repositoryRoot)).language(for: tag)
        #expect(language.localizer.distortionSource?.tag == tag, "the \(tag) rules must be its own, not English")
        return DistortionReport(try items(set, tag), detector: try #require(language.detector))
    }

    @Test("each locale ships at least 40 thoughts per type (English: 100, and 200 unknown), tuned and held back", arguments: locales)
    func sizes(tag: String) throws {
        let all = try Self.items("tuned", tag) + Self.items("heldback", tag)
        let perType = tag == "en" ? 100 : 40
        for type in DistortionType.allCases {
            let n = all.filter { $0.type == type }.count
            #expect(n >= (type == .unknown ? (tag == "en" ? 200 : 40) : perType), "\(tag) \(type.rawValue): \(n) thoughts")
        }
        #expect(try Self.items("heldback", tag).filter { $0.type != .unknown }.count >= 60, "\(tag): held-back set too small")
        // No thought is in both sets.
        let tuned = Set(try Self.items("tuned", tag).map { $0.text.lowercased() })
        #expect(try Self.items("heldback", tag).filter { tuned.contains($0.text.lowercased()) }.isEmpty)
    }

    @Test("on the tuned set every locale routes at least 70% of distorted thoughts and is right at least 85% of the time", arguments: locales)
    func tuned(tag: String) throws {
        let r = try Self.report("tuned", tag)
        #expect(r.coverage >= 0.70, "\(tag): coverage \(r.coverage)")
        #expect(r.precisionWhenRouted >= 0.85, "\(tag): precision when routed \(r.precisionWhenRouted)")
        for row in r.rows { #expect(row.f1 >= 0.6, "\(tag) \(row.type.rawValue): F1 \(row.f1)") }
    }

    @Test("English held-back set: precision when routed at least 0.85 at coverage at least 0.70")
    func heldBackEnglish() throws {
        let r = try Self.report("heldback", "en")
        #expect(r.coverage >= 0.70, "coverage \(r.coverage)")
        #expect(r.precisionWhenRouted >= 0.85, "precision when routed \(r.precisionWhenRouted)")
    }

    @Test("docs/distortions.md shows the current report of every locale's tuned and held-back set", arguments: locales)
    func docsAreCurrent(tag: String) throws {
        let doc = try String(contentsOf: repositoryRoot.appendingPathComponent("docs/distortions.md"), encoding: .utf8)
        for set in ["tuned", "heldback"] {
            let table = try Self.report(set, tag).markdown
            #expect(doc.contains(table), "docs/distortions.md is out of date for \(tag) \(set): run scripts/distortion-report")
        }
    }
}
