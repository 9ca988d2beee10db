import Foundation
import Testing
import ReflectCore
@testable import ReflectEngine

/// A content file that is not UTF-8 text, or holds a byte YAML refuses,
/// names its file and line like every other content error.
@Suite("Content files: bytes that are not text name their line")
struct ContentTextTests {
    func write(_ bytes: [UInt8], _ name: String) throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("reflect-text-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let url = dir.appendingPathComponent(name)
        try Data(bytes).write(to: url)
        return url
    }

    @Test("a flow file with a byte that is not UTF-8 on line 3: the error names line 3, the column and the byte")
    func flowFile() throws {
        let source = Array("return flow { id = \"h.x\", version = 1, run = function(s)\n  local a = 1\n  s:ask { id = \"q\", text = \"ab".utf8)
            + [0xFF, 0xFE] + Array(" here\" }\nend }\n".utf8)
        let url = try write(source, "x.lua")
        let error = try #require(throws: EngineError.self) { try FlowSource.read(url, displayName: "flows/h/x.lua") }
        #expect(error.file == "flows/h/x.lua")
        #expect(error.line == 3)
        #expect(error.message.contains("0xFF") && error.message.contains("column 31") && error.message.contains("UTF-8"), "\(error.message)")
    }

    @Test("a locale file with a truncated UTF-8 sequence on line 5 names line 5; one with a NUL on line 4 names line 4")
    func localeFile() throws {
        let truncated = try write(Array("locale: xx\nname: X\nstrings:\n  a.b: \"fine\"\n  c.d: \"".utf8) + [0xC3] + Array("\"\n".utf8), "xx.yaml")
        let bad = try #require(throws: EngineError.self) { try LocaleFile.load(truncated, displayName: "locales/xx.yaml") }
        #expect(bad.line == 5 && bad.message.contains("0xC3"), "\(bad)")
        let nul = try write(Array("locale: xx\nname: X\nstrings:\n  a.b: \"ab".utf8) + [0x00] + Array("c\"\n".utf8), "xx.yaml")
        let control = try #require(throws: EngineError.self) { try LocaleFile.load(nul, displayName: "locales/xx.yaml") }
        #expect(control.line == 4 && control.message.contains("control characters"), "\(control)")
    }

    @Test("the first invalid byte is found after multi-byte characters, on the right line and byte column")
    func position() {
        let data = Data(Array("é\nà ok\nzz".utf8) + [0xE2, 0x82] + Array("\n".utf8))
        #expect(ContentText.firstInvalidByte(data) == ContentText.InvalidByte(line: 3, column: 3, byte: 0xE2))
        #expect(ContentText.firstInvalidByte(Data("fine\n".utf8)) == nil)
    }
}
