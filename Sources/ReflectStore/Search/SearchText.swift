import Foundation
import GRDB
import GRDBSQLite

/// How a person's text is put into, and looked up in, the related-entries
/// index (FTS5 table `entry_search`, tokenizer `unicode61 remove_diacritics 2`).
///
/// `unicode61` splits words at spaces and punctuation, which is right for
/// the Latin scripts, but reads a Japanese sentence (no spaces) as one
/// word, and a Korean word with its particle (회의가, 회의를) as two
/// unrelated words. So before the tokenizer sees it, every run of Han,
/// kana or Hangul characters is written as its overlapping pairs
/// (明日の会議 → 明日 日の の会 会議), the usual bigram indexing for these
/// scripts; the query goes through the same function, so 会議 finds 会議が.
///
/// The indexed form is made in SQL by the function ``sqlName`` (registered
/// on every connection the store opens), so that the triggers that keep the
/// index in sync with `answer` cover every write path: an answer, an edit,
/// going back, import, deleting an entry or everything.
enum SearchText {
    static let sqlName = "reflect_search_text"

    /// At most this many distinct words of a query are looked up (the rest
    /// add little to bm25 and cost time).
    static let maxQueryTerms = 32

    /// Registers ``sqlName``: given an answer's stored JSON value, its
    /// indexed text, or NULL when the answer is not free text. Registered
    /// through SQLite's C API (deterministic, UTF-8, one argument), not as a
    /// GRDB `DatabaseFunction`, whose boxing of the argument and the result
    /// cost the catch-up about 10k instructions per indexed answer
    /// (callgrind): a JSON string of printable ASCII without escapes
    /// (most answers) is its own indexed form between its quotes, handed
    /// back without making a Swift string; anything else goes through
    /// ``indexedValue(_:)``, as before. `WriteFastPathTests.sqlFunction` holds the two to
    /// the same results over many random values.
    /// The function is a C function without state (no context pointer, no
    /// destructor), so each connection's registration is independent and
    /// nothing is retained. Throws SQLite's error when it cannot register
    /// (out of memory), rather than leave the index's triggers without it.
    static func register(_ db: Database) throws {
        let code = sqlite3_create_function_v2(db.sqliteConnection, sqlName, 1, SQLITE_UTF8 | SQLITE_DETERMINISTIC, nil,
                                              searchTextFunction, nil, nil, nil)
        guard code == SQLITE_OK else {
            throw DatabaseError(resultCode: ResultCode(rawValue: code), message: "cannot register \(sqlName)")
        }
    }

    /// ``sqlName``'s result for a value read as GRDB reads a string (text
    /// up to its first NUL; a blob as UTF-8; nil for anything else), the
    /// general path: its JSON string decoded, in indexed form; nil when it
    /// is not free text.
    static func indexedValue(_ json: String?) -> String? {
        guard let json, let text = decodedJSONString(json) else { return nil }
        let indexed = SearchText.indexed(text)
        return indexed.isEmpty ? nil : indexed
    }

    /// The string a stored JSON value holds, nil when it is not a JSON
    /// string. A string without escapes or control characters (most
    /// answers) is read directly; anything else goes through JSONDecoder,
    /// the general path (``decodedJSONStringInFull(_:)``; `SearchTextTests`
    /// hold the two to the same results over many random values).
    static func decodedJSONString(_ json: String) -> String? {
        // Over the contiguous bytes (a string read from SQLite is native):
        // a tight loop, not the view's index-checked iteration.
        let direct = json.utf8.withContiguousStorageIfAvailable { bytes -> String? in
            guard bytes.count >= 2, bytes[0] == 0x22, bytes[bytes.count - 1] == 0x22 else { return nil }
            let inner = UnsafeBufferPointer(rebasing: bytes[1..<(bytes.count - 1)])
            guard !inner.contains(where: { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C }) else { return nil }
            return String(decoding: inner, as: UTF8.self)
        }
        return (direct ?? nil) ?? decodedJSONStringInFull(json)
    }

    /// ``decodedJSONString(_:)`` through JSONDecoder. The first byte is
    /// compared, not the first Character: a text that starts with a
    /// combining mark, a joiner or a skin tone makes one Character with the
    /// quote (`hasPrefix("\"")` was false for it, and import left such an
    /// answer out of the index).
    static func decodedJSONStringInFull(_ json: String) -> String? {
        guard json.utf8.first == 0x22 else { return nil }
        return try? JSONDecoder().decode(String.self, from: Data(json.utf8))
    }

    /// The text as the tokenizer should see it: runs of Han, kana and Hangul
    /// as overlapping pairs, everything else unchanged. ASCII text is its
    /// own indexed form (compatibility mapping leaves it as it is, and it
    /// holds no paired script): returned as it is.
    static func indexed(_ text: String) -> String {
        // Over the contiguous bytes (a native string's): a tight loop, not
        // the view's index-checked iteration.
        let ascii = text.utf8.withContiguousStorageIfAvailable { !$0.contains { $0 >= 0x80 } } ?? !text.utf8.contains { $0 >= 0x80 }
        return ascii ? text : indexedInFull(text)
    }

    /// ``indexed(_:)`` for any text: the general path.
    static func indexedInFull(_ text: String) -> String {
        var out = String.UnicodeScalarView()
        var run: [Unicode.Scalar] = []
        func flush() {
            guard !run.isEmpty else { return }
            out.append(" ")
            if run.count == 1 {
                out.append(run[0])
            } else {
                for i in 0..<(run.count - 1) {
                    if i > 0 { out.append(" ") }
                    out.append(run[i])
                    out.append(run[i + 1])
                }
            }
            out.append(" ")
            run.removeAll(keepingCapacity: true)
        }
        for scalar in text.precomposedStringWithCompatibilityMapping.unicodeScalars {
            if isPaired(scalar) { run.append(scalar) } else {
                flush()
                out.append(scalar)
            }
        }
        flush()
        return String(out)
    }

    /// The distinct words of `text` as indexed (lowercased), in order, at
    /// most ``maxQueryTerms``. Latin words of one letter ("I", "a") are
    /// left out: they would match almost everything.
    static func terms(_ text: String) -> [String] {
        var terms: [String] = []
        var seen = Set<String>()
        var word = String.UnicodeScalarView()
        func flush() {
            defer { word = String.UnicodeScalarView() }
            guard !word.isEmpty, terms.count < maxQueryTerms else { return }
            if word.count == 1, let s = word.first, !isPaired(s) { return }
            let w = String(word).lowercased()
            if seen.insert(w).inserted { terms.append(w) }
        }
        for scalar in indexed(text).unicodeScalars {
            if scalar.properties.isAlphabetic || scalar.properties.numericType != nil || scalar.properties.generalCategory == .nonspacingMark {
                word.append(scalar)
            } else {
                flush()
            }
        }
        flush()
        return terms
    }

    /// One term as an FTS5 string (quoted: FTS5 syntax in a person's words
    /// is only text).
    static func quoted(_ term: String) -> String {
        "\"" + term.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// The FTS5 query for `terms`: each quoted, joined with OR; nil when
    /// there are none.
    static func query(_ terms: [String]) -> String? {
        terms.isEmpty ? nil : terms.map(quoted).joined(separator: " OR ")
    }

    /// The FTS5 query for `text`'s words (``terms(_:)``).
    static func query(_ text: String) -> String? { query(terms(text)) }

    /// Han (CJK ideographs), Hiragana, Katakana, Hangul.
    static func isPaired(_ s: Unicode.Scalar) -> Bool {
        switch s.value {
        case 0x3040...0x30FF, 0x31F0...0x31FF,          // Hiragana, Katakana (+ extensions)
             0x3400...0x4DBF, 0x4E00...0x9FFF, 0xF900...0xFAFF, 0x20000...0x2FA1F,  // Han
             0x1100...0x11FF, 0x3130...0x318F, 0xAC00...0xD7AF:  // Hangul
            return true
        default:
            return false
        }
    }
}

/// SQLite's "copy this value" destructor (`SQLITE_TRANSIENT`, a C macro).
private let transient = unsafeBitCast(OpaquePointer(bitPattern: -1), to: sqlite3_destructor_type.self)

/// ``SearchText/sqlName`` as SQLite calls it (see ``SearchText/register(_:)``).
private let searchTextFunction: @convention(c) (OpaquePointer?, CInt, UnsafeMutablePointer<OpaquePointer?>?) -> Void = { context, _, argv in
    guard let value = argv?[0] else { return sqlite3_result_null(context) }
    if sqlite3_value_type(value) == SQLITE_TEXT, let text = sqlite3_value_text(value) {
        // `"…"` of printable ASCII, no quote or backslash inside: the text
        // between the quotes is the answer, and its own indexed form.
        let count = Int(sqlite3_value_bytes(value))
        if count > 2, text[0] == 0x22, text[count - 1] == 0x22 {
            var plain = true
            for i in 1..<(count - 1) {
                let b = text[i]
                if b < 0x20 || b >= 0x80 || b == 0x22 || b == 0x5C {
                    plain = false
                    break
                }
            }
            if plain {
                return sqlite3_result_text(context, UnsafeRawPointer(text + 1).assumingMemoryBound(to: CChar.self), CInt(count - 2),
                                           transient)
            }
        }
    }
    // The value as GRDB's `String.fromDatabaseValue` reads it.
    let json: String? = switch sqlite3_value_type(value) {
    case SQLITE_TEXT: sqlite3_value_text(value).map { String(cString: $0) }
    case SQLITE_BLOB:
        String(data: sqlite3_value_blob(value).map { Data(bytes: $0, count: Int(sqlite3_value_bytes(value))) } ?? Data(), encoding: .utf8)
    default: nil
    }
    guard let indexed = SearchText.indexedValue(json) else { return sqlite3_result_null(context) }
    sqlite3_result_text(context, indexed, -1, transient)
}
