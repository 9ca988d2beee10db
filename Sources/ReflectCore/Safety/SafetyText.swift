/// The safety gate's second reading of a text: de-obfuscated and squeezed
/// (see ``SafetyGate``), computed on the normalised UTF-8 bytes, one unicode
/// scalar at a time (ASCII text never leaves bytes).
///
/// The rules speak of *characters*: a character here is a scalar with the
/// combining marks that follow it (after ``TextNormalizer``, text holds
/// precomposed letters, so this is what a person sees as one letter). A
/// character is a letter when its first scalar is alphabetic, a number when
/// its first scalar has a numeric value, as for Swift's `Character`.
enum SafetyText {
    /// One character: its bytes in the source, what it reads as after
    /// l33t mapping, and its class.
    private struct Unit {
        var start: Int32
        var end: Int32
        /// The ASCII letter a l33t digit or symbol stands for, or 0.
        var replacement: UInt8 = 0
        var letter: Bool
        var number: Bool
        /// The scalar when the character is exactly one scalar, else nil.
        var single: UInt32?

        var isASCII: Bool { replacement != 0 || (single.map { $0 < 0x80 } ?? false) }
    }

    /// l33t digits and symbols, and the letters they stand for.
    @inline(__always)
    private static func leet(_ s: UInt32) -> UInt8 {
        switch s {
        case 0x30: return UInt8(ascii: "o")   // 0
        case 0x31: return UInt8(ascii: "i")   // 1
        case 0x33: return UInt8(ascii: "e")   // 3
        case 0x34: return UInt8(ascii: "a")   // 4
        case 0x35: return UInt8(ascii: "s")   // 5
        case 0x37: return UInt8(ascii: "t")   // 7
        case 0x38: return UInt8(ascii: "b")   // 8
        case 0x40: return UInt8(ascii: "a")   // @
        case 0x24: return UInt8(ascii: "s")   // $
        case 0x21, 0x7C: return UInt8(ascii: "i")   // ! |
        default: return 0
        }
    }

    /// Characters that join letters spelled out one by one ("k.i.l.l").
    @inline(__always)
    private static func isSpeller(_ s: UInt32?) -> Bool {
        guard let s else { return false }
        return s == 0x2E || s == 0x2D || s == 0x5F || s == 0x2A || s == 0xB7
    }

    /// Squeezable: ASCII letters, the Japanese elongation marks and tildes.
    @inline(__always)
    private static func isSqueezable(_ s: UInt32) -> Bool {
        (s >= 0x61 && s <= 0x7A) || (s >= 0x41 && s <= 0x5A) || s == 0x30FC || s == 0x301C || s == 0xFF5E || s == 0x7E
    }

    /// The characters of UTF-8 bytes `t`.
    private static func units(_ t: UnsafeBufferPointer<UInt8>) -> [Unit] {
        var out: [Unit] = []
        out.reserveCapacity(t.count)
        var i = 0
        let n = t.count
        while i < n {
            let b = t[i]
            if b < 0x80 {
                let letter = (b >= 97 && b <= 122) || (b >= 65 && b <= 90)
                out.append(Unit(start: Int32(i), end: Int32(i + 1), letter: letter, number: b >= 48 && b <= 57, single: UInt32(b)))
                i += 1
                continue
            }
            let (scalar, len) = decode(t, i)
            let p = Unicode.Scalar(scalar).map(\.properties)
            let category = p?.generalCategory
            if category == .nonspacingMark || category == .spacingMark || category == .enclosingMark, !out.isEmpty,
               out[out.count - 1].single != 0x20 {
                // A combining mark belongs to the character before it.
                out[out.count - 1].end = Int32(i + len)
                out[out.count - 1].single = nil
            } else {
                out.append(Unit(start: Int32(i), end: Int32(i + len), letter: p?.isAlphabetic ?? false,
                                number: p?.numericType != nil, single: scalar))
            }
            i += len
        }
        return out
    }

    /// The scalar at `i` and its length in bytes (U+FFFD for a broken sequence).
    @inline(__always)
    private static func decode(_ t: UnsafeBufferPointer<UInt8>, _ i: Int) -> (UInt32, Int) {
        let b0 = t[i]
        let n: Int, initial: UInt32
        switch b0 {
        case 0xC0...0xDF: n = 2; initial = UInt32(b0 & 0x1F)
        case 0xE0...0xEF: n = 3; initial = UInt32(b0 & 0x0F)
        case 0xF0...0xF7: n = 4; initial = UInt32(b0 & 0x07)
        default: return (0xFFFD, 1)
        }
        guard i + n <= t.count else { return (0xFFFD, 1) }
        var scalar = initial
        for k in 1..<n {
            let c = t[i + k]
            guard c & 0xC0 == 0x80 else { return (0xFFFD, 1) }
            scalar = scalar << 6 | UInt32(c & 0x3F)
        }
        return (scalar, n)
    }

    /// De-obfuscated and squeezed normalised text (what ``SafetyGate`` matches
    /// its squeezed lists against):
    /// - l33t inside words mapped to letters: digits anywhere in a word that
    ///   has a letter, symbols only before a letter ("d!e" yes, the "!" of
    ///   "die!" no);
    /// - single letters joined by a speller within a word ("k.i.l.l");
    /// - one-letter words in a row joined ("s u i c i d e"): three or more
    ///   Latin letters, four or more in other scripts (in Hangul every
    ///   syllable is a letter: "자 살 거 있으면" is ordinary text);
    /// - then ``squeeze(_:)``.
    static func deobfuscatedSqueezed(_ t: UnsafeBufferPointer<UInt8>) -> [UInt8] {
        if !t.contains(where: { $0 >= 0x80 }) { return deobfuscatedSqueezedASCII(t) }
        return deobfuscatedSqueezedScalars(t)
    }

    /// ``deobfuscatedSqueezed(_:)`` computed character by character, for
    /// any text (the general path; ASCII text takes
    /// ``deobfuscatedSqueezedASCII(_:into:)``, which the tests compare with this).
    static func deobfuscatedSqueezedScalars(_ t: UnsafeBufferPointer<UInt8>) -> [UInt8] {
        deobfuscatedSqueezedScalars(t, recording: false).bytes
    }

    /// Where each byte of ``deobfuscatedSqueezed(_:)`` comes from in `t`:
    /// the offset of the byte it copies, or of the character a l33t
    /// replacement stands for, or, for the space before a word, of that
    /// word's first character. Never decreasing, so a span of the reading
    /// `s..<e` comes from `sources[s] ..< (e < count ? sources[e] : t.count)`
    /// of the text, the letters a squeeze dropped included ("sliiice" is
    /// "slice"). Computed only when a benign idiom of the de-obfuscated
    /// reading must be found in the plain one (``SafetyGate``).
    static func deobfuscatedSqueezedSources(_ t: UnsafeBufferPointer<UInt8>) -> [Int32] {
        deobfuscatedSqueezedScalars(t, recording: true).sources
    }

    private static func deobfuscatedSqueezedScalars(_ t: UnsafeBufferPointer<UInt8>,
                                                    recording: Bool) -> (bytes: [UInt8], sources: [Int32]) {
        var u = units(t)
        var out: [UInt8] = []
        out.reserveCapacity(t.count)
        var sources: [Int32] = []
        if recording { sources.reserveCapacity(t.count) }
        // Squeeze state: the last character written, when one scalar.
        var last: UInt32? = nil
        func emit(_ x: Unit) {
            if x.replacement != 0 {
                let s = UInt32(x.replacement)
                if last == s, isSqueezable(s) { return }
                out.append(x.replacement)
                if recording { sources.append(x.start) }
                last = s
                return
            }
            if let s = x.single, last == s, isSqueezable(s) { return }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: t[Int(x.start)..<Int(x.end)]))
            if recording { sources.append(contentsOf: x.start..<x.end) }
            last = x.single
        }
        var wroteWord = false
        /// The space before a word whose first character is `next`.
        func space(before next: Unit) {
            if wroteWord {
                out.append(32)
                if recording { sources.append(next.start) }
                last = 0x20
            }
            wroteWord = true
        }
        // A pending run of one-letter words: their units and whether each is ASCII.
        var run: [Unit] = []
        var runASCII = true
        func flush() {
            guard !run.isEmpty else { return }
            if run.count >= (runASCII ? 3 : 4) {
                space(before: run[0])
                for x in run { emit(x) }
            } else {
                for x in run { space(before: x); emit(x) }
            }
            run.removeAll(keepingCapacity: true)
            runASCII = true
        }
        var i = 0
        let n = u.count
        while i < n {
            if u[i].single == 0x20 { i += 1; continue }
            var j = i
            while j < n, u[j].single != 0x20 { j += 1 }
            // The word u[i ..< j].
            var spelled = false
            if u[i..<j].contains(where: \.letter) {
                for k in i..<j {
                    let l = u[k].single.map(leet) ?? 0
                    guard l != 0 else { continue }
                    if u[k].number || (k + 1 < j && u[k + 1].letter) {
                        u[k].replacement = l
                        u[k].letter = true
                        u[k].number = false
                    }
                }
                if j - i >= 5 {
                    spelled = true
                    for k in i..<j where (k - i) % 2 == 0 ? !u[k].letter : !isSpeller(u[k].single) {
                        spelled = false
                        break
                    }
                }
            }
            let step = spelled ? 2 : 1
            if j - i == 1, u[i].letter {
                if let first = run.first, first.isASCII != u[i].isASCII { flush() }
                run.append(u[i])
                runASCII = runASCII && u[i].isASCII
            } else {
                flush()
                space(before: u[i])
                for k in stride(from: i, to: j, by: step) { emit(u[k]) }
            }
            i = j
        }
        flush()
        return (out, sources)
    }

    @inline(__always)
    private static func isLetter(_ b: UInt8) -> Bool { (b >= 97 && b <= 122) || (b >= 65 && b <= 90) }

    /// ``deobfuscatedSqueezed(_:)`` for ASCII text, as an array.
    private static func deobfuscatedSqueezedASCII(_ t: UnsafeBufferPointer<UInt8>) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: t.count) { buf, count in
            guard let base = buf.baseAddress else { count = 0; return }
            count = deobfuscatedSqueezedASCII(t, into: base)
        }
    }

    /// The output of ``deobfuscatedSqueezedASCII(_:into:)``: each byte
    /// written unless it repeats the last one and is squeezable.
    private struct ASCIIWriter {
        let out: UnsafeMutablePointer<UInt8>
        var count = 0
        var last: UInt8 = 0
        /// Whether a word was written (the next one is preceded by a space).
        var wroteWord = false

        @inline(__always) mutating func emit(_ b: UInt8) {
            if b == last, SafetyText.isLetter(b) || b == 0x7E { return }
            out[count] = b
            count &+= 1
            last = b
        }

        @inline(__always) mutating func space() {
            if wroteWord { emit(32) }
            wroteWord = true
        }
    }

    /// ``deobfuscatedSqueezed(_:)`` for ASCII text, where every byte is a
    /// character: the same rules, without decoding, written to `out`
    /// (which holds at least `t.count` bytes: the result is never longer
    /// than the text). Returns the number of bytes written. One pass over
    /// the text plus one over each word that holds l33t or spelling, no
    /// allocation, no reference counting.
    static func deobfuscatedSqueezedASCII(_ t: UnsafeBufferPointer<UInt8>, into out: UnsafeMutablePointer<UInt8>) -> Int {
        let n = t.count
        guard n > 0, let p = t.baseAddress else { return 0 }
        var w = ASCIIWriter(out: out)
        // The pending run of one-letter words: where it starts, how many.
        var runStart = 0, runCount = 0
        var i = 0
        while i < n {
            if p[i] == 32 { i &+= 1; continue }
            var j = i
            var letters = false, leets = false
            while j < n {
                let b = p[j]
                if b == 32 { break }
                if isLetter(b) { letters = true } else if leet(UInt32(b)) != 0 { leets = true }
                j &+= 1
            }
            let length = j &- i
            if length == 1, letters {
                if runCount == 0 { runStart = i }
                runCount &+= 1
                i = j
                continue
            }
            if runCount > 0 {
                flushRun(p, from: runStart, count: runCount, into: &w)
                runCount = 0
            }
            w.space()
            if !letters || (!leets && (length < 5 || !isSpeller(UInt32(p[i &+ 1])))) {
                // Nothing to map and not spelled out (the second character
                // of a spelled word is a speller): the word as written.
                for k in i..<j { w.emit(p[k]) }
                i = j
                continue
            }
            // Leet inside a word with letters: digits anywhere, symbols only
            // before a letter (looking at the next byte as written).
            @inline(__always) func mapped(_ k: Int) -> UInt8 {
                let b = p[k]
                guard leets else { return b }
                let l = leet(UInt32(b))
                return l != 0 && ((b >= 48 && b <= 57) || (k &+ 1 < j && isLetter(p[k &+ 1]))) ? l : b
            }
            var spelled = length >= 5
            if spelled {
                for k in i..<j where (k &- i) % 2 == 0 ? !isLetter(mapped(k)) : !isSpeller(UInt32(p[k])) {
                    spelled = false
                    break
                }
            }
            for k in stride(from: i, to: j, by: spelled ? 2 : 1) { w.emit(mapped(k)) }
            i = j
        }
        if runCount > 0 { flushRun(p, from: runStart, count: runCount, into: &w) }
        return w.count
    }

    /// Writes a run of `count` one-letter words starting at `start`: three
    /// or more joined into one word ("s u i c i d e"), else each a word.
    @inline(__always)
    private static func flushRun(_ p: UnsafePointer<UInt8>, from start: Int, count: Int, into w: inout ASCIIWriter) {
        var i = start
        if count >= 3 { w.space() }
        for _ in 0..<count {
            while p[i] == 32 { i &+= 1 }
            if count < 3 { w.space() }
            w.emit(p[i])
            i &+= 1
        }
    }

    /// Runs of the same ASCII letter collapsed to one ("diiiie" → "die"), and
    /// of Japanese elongation marks ("死にたーーーい" → "死にたーい"). Other
    /// characters are left alone: doubled kana are part of words (くくる, いい).
    static func squeeze(_ t: UnsafeBufferPointer<UInt8>) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(t.count)
        var last: UInt32? = nil
        for x in units(t) {
            if let s = x.single, last == s, isSqueezable(s) { continue }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: t[Int(x.start)..<Int(x.end)]))
            last = x.single
        }
        return out
    }
}
