import ArgumentParser
import Foundation
import ReflectEngine
import ReflectAuthoring

struct TestCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "test",
        abstract: "Run transcript tests (*.test.yaml next to the flows): answers in, expected prompts and events out.")

    @Argument(help: "Test files or directories (default: every *.test.yaml under flows/).")
    var paths: [String] = []

    @OptionGroup var contentOptions: ContentOptions

    func run() throws {
        let suite = TranscriptSuite(library: try contentOptions.open())
        var files: [URL] = []
        if paths.isEmpty {
            files = suite.discover()
        } else {
            for p in paths {
                let url = URL(fileURLWithPath: p)
                var isDir: ObjCBool = false
                guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDir) else { throw ValidationError("no such file: \(p)") }
                if isDir.boolValue {
                    let walker = FileManager.default.enumerator(at: url, includingPropertiesForKeys: nil)
                    files += (walker?.compactMap { $0 as? URL } ?? []).filter { $0.lastPathComponent.hasSuffix(".test.yaml") }
                } else {
                    files.append(url)
                }
            }
        }
        var failed = 0, passed = 0
        for file in files.sorted(by: { $0.path < $1.path }) {
            for r in suite.run(file) {
                if let failure = r.failure {
                    failed += 1
                    print("✗ \(r.file) › \(r.test)\n  \(failure.replacingOccurrences(of: "\n", with: "\n  "))")
                } else {
                    passed += 1
                    print("✓ \(r.file) › \(r.test)")
                }
            }
        }
        print("\(passed) passed, \(failed) failed")
        if failed > 0 || passed == 0 { throw ExitCode(1) }
    }
}
