/// Lines out of a byte stream read in chunks (a pipe, a file), each found
/// once: every byte is looked at once however long its line is, and a line
/// taken leaves the rest where it is until the buffer is mostly consumed.
///
/// Looking for the end of a line from the start of the buffer again after
/// each chunk, and removing each line from the front, made a long line
/// quadratic: a 100 MB answer line read in 4 KiB chunks had not been read
/// after a quarter of an hour.
struct ChunkedLines {
    private var buffer: [UInt8] = []
    /// The first byte of the next line.
    private var start = 0
    /// Bytes before this index (from `start`) hold no line feed.
    private var scanned = 0
    private var ended = false
    /// Bytes looked at for a line feed so far (what the tests count).
    private(set) var examined = 0

    /// The next line without its LF (a CR is left to the caller), the rest
    /// at the end of input, nil after that. `read` gives the next chunk,
    /// empty at the end of input.
    mutating func next(_ read: () -> [UInt8]) -> [UInt8]? {
        while true {
            if scanned < buffer.count {
                let from = scanned
                let newline = buffer[from...].firstIndex(of: UInt8(ascii: "\n"))
                examined += (newline.map { $0 + 1 } ?? buffer.count) - from
                if let newline {
                    let line = Array(buffer[start..<newline])
                    start = newline + 1
                    scanned = start
                    compact()
                    return line
                }
                scanned = buffer.count
            }
            if ended {
                guard start < buffer.count else { return nil }
                defer { buffer.removeAll(); start = 0; scanned = 0 }
                return Array(buffer[start...])
            }
            let chunk = read()
            if chunk.isEmpty { ended = true } else { buffer += chunk }
        }
    }

    /// Drops the lines already taken once they are most of the buffer
    /// (amortised: each byte is moved at most once more).
    private mutating func compact() {
        guard start > 0, start * 2 >= buffer.count else { return }
        buffer.removeSubrange(..<start)
        scanned -= start
        start = 0
    }
}
