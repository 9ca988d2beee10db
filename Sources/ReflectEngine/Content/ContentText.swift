import Foundation

/// A content file's bytes as text (flows, locales, personalities,
/// experiments, rules): UTF-8, with what to tell an author when it is not —
/// the line and column of the first byte that is not UTF-8, so the error
/// names the place to fix like every other content error.
package enum ContentText {
    /// Where `data` first stops being UTF-8: a 1-based line and byte column,
    /// and the byte there.
    package struct InvalidByte: Error, Equatable, Sendable {
        package let line: Int
        package let column: Int
        package let byte: UInt8

        package var message: String {
            "byte 0x\(String(byte, radix: 16, uppercase: true)) at column \(column) is not UTF-8 text; save the file as UTF-8"
        }
    }

    /// `data` as a String, or where it is not UTF-8.
    package static func decode(_ data: Data) -> Result<String, InvalidByte> {
        if let text = String(data: data, encoding: .utf8) { return .success(text) }
        return .failure(firstInvalidByte(data) ?? InvalidByte(line: 1, column: 1, byte: data.first ?? 0))
    }

    /// The first byte of `data` that does not begin a well-formed UTF-8
    /// sequence (nil when there is none).
    package static func firstInvalidByte(_ data: Data) -> InvalidByte? {
        var parser = Unicode.UTF8.ForwardParser()
        var iterator = data.makeIterator()
        var offset = 0, line = 1, lineStart = 0
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let encoded):
                if encoded.count == 1, encoded.first == 0x0A { line += 1; lineStart = offset + 1 }
                offset += encoded.count
            case .error(let length):
                let byte = data[data.startIndex + offset]
                _ = length
                return InvalidByte(line: line, column: offset - lineStart + 1, byte: byte)
            case .emptyInput:
                return nil
            }
        }
    }

    /// The 1-based line of byte `offset` in `text` (clamped to the text).
    package static func line(ofByte offset: Int, in text: String) -> Int {
        var line = 1
        for byte in text.utf8.prefix(max(offset, 0)) where byte == 0x0A { line += 1 }
        return line
    }

    /// Reads the file at `url` as UTF-8 text; `fail` makes the error to
    /// throw from a line (nil when unknown) and a message.
    package static func read(_ url: URL, fail: (Int?, String) -> EngineError) throws(EngineError) -> String {
        let data: Data
        do { data = try Data(contentsOf: url) } catch {
            throw fail(nil, "cannot read the file (\((error as NSError).localizedDescription))")
        }
        switch decode(data) {
        case .success(let text): return text
        case .failure(let invalid): throw fail(invalid.line, invalid.message)
        }
    }
}
