import Foundation
import Testing
import Yams
import ReflectCore
@testable import ReflectEngine

/// Issue 5: thoughts written natively in each of the seven locales
/// (Tests/Fixtures/distortions/<tag>.yaml), classified with that locale's
/// own word lists.
@Suite("Distortion fixtures, per locale")
struct DistortionFixtureTests {
    static let locales = ["en", "de", "es", "fr", "ja", "ko", "pt-BR"]

    @Test("at least 10 thoughts per distortion and 10 neutral ones, each classified as written", arguments: locales)
    func fixtures(tag: String) throws {
        let url = repositoryRoot.appendingPathComponent("Tests/Fixtures/distortions/\(tag).yaml")
        let yaml = try #require(try Yams.load(yaml: String(contentsOf: url, encoding: .utf8)) as? [String: Any])
        #expect(yaml["locale"] as? String == tag)
        let language = try ContentLibrary(root: ContentRoot(repositoryRoot)).language(for: tag)
        #expect(language.localizer.distortionSource?.tag == tag, "the \(tag) lists must be its own, not English")
        let detector = try #require(language.detector)
        for type in DistortionType.allCases {
            let thoughts = try #require(yaml[type.rawValue] as? [String], "\(tag): no \(type.rawValue) fixtures")
            #expect(thoughts.count >= 10, "\(tag) \(type.rawValue): \(thoughts.count) thoughts")
            for thought in thoughts {
                #expect(detector.detect(thought) == type, "\(tag): “\(thought)”")
            }
        }
    }
}
