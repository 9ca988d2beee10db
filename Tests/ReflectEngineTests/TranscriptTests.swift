import Foundation
import Testing
@testable import ReflectEngine
@testable import ReflectAuthoring

@Suite("Transcript tests of the shipped flows")
struct TranscriptTests {
    @Test("every shipped flow has a transcript test, and every transcript passes")
    func shipped() throws {
        let library = ContentLibrary(root: ContentRoot(repositoryRoot))
        let suite = TranscriptSuite(library: library)
        let files = suite.discover()
        let flows = library.root.flowFiles().map { $0.name.replacingOccurrences(of: ".lua", with: ".test.yaml") }
        for flow in flows { #expect(files.contains { library.root.displayName(for: $0) == flow }, "\(flow) is missing") }
        let results = files.flatMap { suite.run($0) }
        #expect(results.count >= 10)
        for r in results { #expect(r.failure == nil, "\(r.file) › \(r.test): \(r.failure ?? "")") }
    }
}
