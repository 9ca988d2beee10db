import Foundation
import Testing
@testable import reflect

/// The answers file and stdin of the machine route are read in chunks; a
/// line is found by looking at each byte once, however long it is (a
/// 100 MB line was quadratic: not read after a quarter of an hour).
@Suite("answer lines read in chunks", .hangGuard)
struct ChunkedLinesTests {
    /// Every line of `input`, read in chunks of `size` bytes.
    static func lines(_ input: [UInt8], chunk size: Int) -> (lines: [[UInt8]], examined: Int) {
        var reader = ChunkedLines()
        var offset = 0
        var out: [[UInt8]] = []
        while let line = reader.next({
            let end = min(input.count, offset + size)
            defer { offset = end }
            return Array(input[offset..<end])
        }) { out.append(line) }
        return (out, reader.examined)
    }

    @Test("a 4 MiB line read 4 KiB at a time: each byte looked at once, the line whole")
    func longLineIsLinear() {
        let line = [UInt8](repeating: UInt8(ascii: "a"), count: 4 << 20)
        let input = Array("6\n".utf8) + line + [10] + Array("\"after\"".utf8)
        let (lines, examined) = ChunkedLinesTests.lines(input, chunk: 4096)
        #expect(lines == [Array("6".utf8), line, Array("\"after\"".utf8)])
        #expect(examined <= input.count, "\(examined) bytes looked at for \(input.count)")
    }

    @Test("lines split across chunks of any size read as split by line feeds (CR kept, last line without LF, blank lines)",
          arguments: [1, 2, 3, 7, 64, 1 << 16])
    func splitsAsLineFeeds(size: Int) {
        let text = "6\r\n\"one\"\n\n\"two, a longer line than a chunk of a few bytes\"\n\n\n{\"done\":true}"
        let (lines, examined) = ChunkedLinesTests.lines(Array(text.utf8), chunk: size)
        #expect(lines == Array(text.utf8).split(separator: 10, omittingEmptySubsequences: false).map { Array($0) })
        #expect(examined <= text.utf8.count)
    }

    @Test("many short lines in one big chunk: each byte looked at once")
    func manyLinesOneChunk() {
        let input = Array(String(repeating: "\"x\"\n", count: 100_000).utf8)
        let (lines, examined) = ChunkedLinesTests.lines(input, chunk: input.count)
        #expect(lines.count == 100_000 && lines.allSatisfy { $0 == Array("\"x\"".utf8) })
        #expect(examined <= input.count)
    }
}
