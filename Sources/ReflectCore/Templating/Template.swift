/// A prompt text with placeholders for earlier answers.
///
/// Syntax (a subset of Apple/gettext format strings, so translators' tools
/// check it): `%@` takes the next argument, `%2$@` argument 2 (1-based),
/// `%%` is a literal percent sign. Any other `%` is literal text.
/// Placeholders are filled when the step is shown, so a prompt follows an
/// edited earlier answer. Parsing is one pass over the text (a positional
/// placeholder has at most two digits), so hostile text costs linear time.
public struct Template: Sendable, Equatable {
    public enum Piece: Sendable, Equatable {
        case text(String)
        case argument(Int) // 1-based
    }

    public let source: String
    public let pieces: [Piece]

    public init(_ source: String) {
        self.source = source
        // One pass over the UTF-8 bytes: every byte of the syntax is ASCII,
        // and no byte of a multi-byte character is, so a byte scan finds
        // exactly the placeholders a scan of the characters would.
        var pieces: [Piece] = []
        var next = 1
        var literal = ""
        let whole = source
        var source = source
        source.withUTF8 { s in
            // Most texts hold no placeholder: the whole text is one piece.
            guard s.contains(UInt8(ascii: "%")) else {
                if !s.isEmpty { pieces.append(.text(whole)) }
                return
            }
            func flush() {
                if !literal.isEmpty { pieces.append(.text(literal)) }
                literal = ""
            }
            func take(_ range: Range<Int>) {
                if !range.isEmpty { literal += String(decoding: UnsafeBufferPointer(rebasing: s[range]), as: UTF8.self) }
            }
            func digit(_ k: Int) -> Int? {
                guard k < s.count, s[k] >= 48, s[k] <= 57 else { return nil }
                return Int(s[k]) - 48
            }
            let percent = UInt8(ascii: "%"), at = UInt8(ascii: "@"), dollar = UInt8(ascii: "$")
            var i = 0
            var run = 0 // start of the literal bytes not yet copied
            while i < s.count {
                guard s[i] == percent, i + 1 < s.count else {
                    i += 1
                    continue
                }
                if s[i + 1] == at {
                    take(run..<i)
                    flush()
                    pieces.append(.argument(next)); next += 1
                    i += 2
                    run = i
                } else if s[i + 1] == percent {
                    take(run..<(i + 1)) // one "%"
                    i += 2
                    run = i
                } else if let d1 = digit(i + 1) {
                    // %N$@ or %NN$@, N in 1...99
                    var n = d1, k = i + 2
                    if let d2 = digit(k) { n = n * 10 + d2; k += 1 }
                    if n >= 1, k + 1 < s.count, s[k] == dollar, s[k + 1] == at {
                        take(run..<i)
                        flush()
                        pieces.append(.argument(n))
                        i = k + 2
                        run = i
                    } else {
                        i += 1
                    }
                } else {
                    i += 1
                }
            }
            take(run..<s.count)
            flush()
        }
        self.pieces = pieces
    }

    /// The argument numbers this template uses (what `msgfmt -c` compares
    /// between a source string and its translation).
    public var arguments: Set<Int> {
        Set(pieces.compactMap { if case .argument(let n) = $0 { n } else { nil } })
    }

    public var hasPlaceholders: Bool { !arguments.isEmpty }

    /// The UTF-8 length ``render(_:)`` would produce, without building it
    /// (so a host can refuse a huge result before paying for it).
    public func renderedUTF8Count(_ args: [String]) -> Int {
        var n = 0
        for p in pieces {
            switch p {
            case .text(let s): n += s.utf8.count
            case .argument(let i): n += i <= args.count ? args[i - 1].utf8.count : 0
            }
        }
        return n
    }

    /// Fills the placeholders; a missing argument renders as empty text.
    public func render(_ args: [String]) -> String {
        render(args, reserving: renderedUTF8Count(args))
    }

    /// ``render(_:)`` for a caller that has already measured the result
    /// (``renderedUTF8Count(_:)``, to check a limit): it is not counted twice.
    public func render(_ args: [String], reserving size: Int) -> String {
        if pieces.count == 1, case .text(let s) = pieces[0] { return s }
        var out = ""
        out.reserveCapacity(size)
        for p in pieces {
            switch p {
            case .text(let s): out += s
            case .argument(let n): out += n <= args.count ? args[n - 1] : ""
            }
        }
        return out
    }
}
