/// A prompt text with placeholders for earlier answers.
///
/// Syntax (a subset of Apple/gettext format strings, so translators' tools
/// check it): `%@` takes the next argument, `%2$@` argument 2 (1-based),
/// `%%` is a literal percent sign. Any other `%` is literal text.
/// Placeholders are filled when the step is shown, so a prompt follows an
/// edited earlier answer.
public struct Template: Sendable, Equatable {
    public enum Piece: Sendable, Equatable {
        case text(String)
        case argument(Int) // 1-based
    }

    public let source: String
    public let pieces: [Piece]

    public init(_ source: String) {
        self.source = source
        var pieces: [Piece] = []
        var literal = ""
        var next = 1
        var i = source.startIndex
        while i < source.endIndex {
            let c = source[i]
            guard c == "%" else {
                literal.append(c)
                i = source.index(after: i)
                continue
            }
            let rest = source[source.index(after: i)...]
            if rest.hasPrefix("@") {
                pieces.append(.text(literal)); literal = ""
                pieces.append(.argument(next)); next += 1
                i = source.index(i, offsetBy: 2)
            } else if rest.hasPrefix("%") {
                literal.append("%")
                i = source.index(i, offsetBy: 2)
            } else if let dollar = rest.firstIndex(of: "$"), let n = Int(rest[rest.startIndex..<dollar]), n >= 1, n <= 99,
                      source[source.index(after: dollar)...].hasPrefix("@") {
                pieces.append(.text(literal)); literal = ""
                pieces.append(.argument(n))
                i = source.index(dollar, offsetBy: 2)
            } else {
                literal.append(c)
                i = source.index(after: i)
            }
        }
        pieces.append(.text(literal))
        self.pieces = pieces.filter { $0 != .text("") }
    }

    /// The argument numbers this template uses (what `msgfmt -c` compares
    /// between a source string and its translation).
    public var arguments: Set<Int> {
        Set(pieces.compactMap { if case .argument(let n) = $0 { n } else { nil } })
    }

    public var hasPlaceholders: Bool { !arguments.isEmpty }

    /// Fills the placeholders; a missing argument renders as empty text.
    public func render(_ args: [String]) -> String {
        var out = ""
        for p in pieces {
            switch p {
            case .text(let s): out += s
            case .argument(let n): out += n <= args.count ? args[n - 1] : ""
            }
        }
        return out
    }
}
