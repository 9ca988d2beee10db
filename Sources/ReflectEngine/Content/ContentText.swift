import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

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

    /// The largest content file read (a flow has its own, smaller limit,
    /// ``FlowSource/maxBytes``); the largest locale is about 200 KB.
    package static let maxFileBytes = 16 << 20

    /// Why a content file's bytes could not be read.
    package enum ReadFailure: Error, Equatable, Sendable {
        /// It cannot be opened or read (the system's reason).
        case unreadable(String)
        /// A pipe, a device, a socket or a directory: reading one could
        /// block forever (a pipe nobody writes) or never end (`/dev/zero`).
        case notRegularFile(String)
        /// Larger than the limit (its size, the limit).
        case tooLarge(Int, limit: Int)

        package var message: String {
            switch self {
            case .unreadable(let why): "cannot read the file (\(why))"
            case .notRegularFile(let kind): "is \(kind), not a regular file; content files must be plain files"
            case .tooLarge(let size, let limit): "the file is \(size) bytes (at most \(limit))"
            }
        }
    }

    /// The bytes of the regular file at `url` (symbolic links followed), at
    /// most `limit`. The file is opened without blocking and checked to be a
    /// regular file before anything is read, and never more than
    /// `limit + 1` bytes are read, so no content file can hang or exhaust
    /// a command (a named pipe in `flows/` hung `reflect run` and
    /// `reflect flows`; a link to `/dev/zero` filled memory).
    package static func bytes(_ url: URL, limit: Int = maxFileBytes) -> Result<Data, ReadFailure> {
        let fd = open(url.path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { return .failure(.unreadable(String(cString: strerror(errno)).lowercased())) }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0 else { return .failure(.unreadable(String(cString: strerror(errno)).lowercased())) }
        switch st.st_mode & S_IFMT {
        case S_IFREG: break
        case S_IFDIR: return .failure(.notRegularFile("a directory"))
        case S_IFIFO: return .failure(.notRegularFile("a named pipe"))
        case S_IFCHR, S_IFBLK: return .failure(.notRegularFile("a device"))
        case S_IFSOCK: return .failure(.notRegularFile("a socket"))
        default: return .failure(.notRegularFile("not a file"))
        }
        if Int(st.st_size) > limit { return .failure(.tooLarge(Int(st.st_size), limit: limit)) }
        var data = Data()
        var chunk = [UInt8](repeating: 0, count: 64 << 10)
        while data.count <= limit {
            let n = chunk.withUnsafeMutableBytes { systemRead(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                return .failure(.unreadable(String(cString: strerror(errno)).lowercased()))
            }
            if n == 0 { break }
            data.append(contentsOf: chunk[0..<n])
        }
        if data.count > limit { return .failure(.tooLarge(data.count, limit: limit)) }
        return .success(data)
    }

    private static func systemRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
        #if canImport(Glibc)
        Glibc.read(fd, buffer, count)
        #else
        Darwin.read(fd, buffer, count)
        #endif
    }

    /// Reads the file at `url` as UTF-8 text (``bytes(_:limit:)``); `fail`
    /// makes the error to throw from a line (nil when unknown) and a message.
    package static func read(_ url: URL, limit: Int = maxFileBytes, fail: (Int?, String) -> EngineError) throws(EngineError) -> String {
        let data: Data
        switch bytes(url, limit: limit) {
        case .success(let read): data = read
        case .failure(let failure): throw fail(nil, failure.message)
        }
        switch decode(data) {
        case .success(let text): return text
        case .failure(let invalid): throw fail(invalid.line, invalid.message)
        }
    }
}
