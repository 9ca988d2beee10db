/// A finding about content, as data: a stable code, where, what, and how to
/// fix it. It is the one finding type of every author and translator tool:
/// `reflect check` reports flows, locale files and personalities with it,
/// and `reflect locales check` reports the locale findings as the very same
/// values, so one problem has one code and one severity wherever it shows.
///
/// Each code has a page, `docs/diagnostics/<code>.md`, whose example is run
/// by a test and must produce that code. Errors fail a check; warnings do not.
public struct Diagnostic: Sendable, Equatable, Encodable {
    public enum Severity: String, Sendable, Encodable { case error, warning }

    /// The code's severity: fixed per code, never per finding.
    public var severity: Severity { code.severity }
    public var code: DiagnosticCode
    public var file: String
    public var line: Int?
    public var column: Int?
    /// The locale a locale finding is about (`de`), else nil.
    public var locale: String?
    /// The locale key a finding is about, else nil.
    public var key: String?
    public var message: String
    /// The code's one-line fix.
    public var hint: String { code.hint }

    public init(_ code: DiagnosticCode, file: String, line: Int? = nil, column: Int? = nil,
                locale: String? = nil, key: String? = nil, message: String) {
        self.code = code
        self.file = file
        self.line = line
        self.column = column
        self.locale = locale
        self.key = key
        self.message = message
    }

    /// `flows/x.lua:7:12: error R001: message`; a locale finding about a key
    /// reads `locales/fr.yaml:46: error L002: 'key' (fr): message`.
    public var headline: String {
        var at = file
        if let line { at += ":\(line)" + (column.map { ":\($0)" } ?? "") }
        let subject = key.map { "'\($0)' (\(locale ?? "?")): " } ?? ""
        return "\(at): \(severity.rawValue) \(code.rawValue): \(subject)\(message)"
    }

    /// The headline, then the fix on its own line.
    public var description: String { headline + "\n    fix: \(hint)" }

    private enum CodingKeys: String, CodingKey { case severity, code, name, file, line, column, locale, key, message, hint }

    /// JSON for editors: `code` is the stable code (`L002`), `name` its
    /// readable name (`locale.placeholders`).
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(severity, forKey: .severity)
        try c.encode(code.rawValue, forKey: .code)
        try c.encode(code.name, forKey: .name)
        try c.encode(file, forKey: .file)
        try c.encodeIfPresent(line, forKey: .line)
        try c.encodeIfPresent(column, forKey: .column)
        try c.encodeIfPresent(locale, forKey: .locale)
        try c.encodeIfPresent(key, forKey: .key)
        try c.encode(message, forKey: .message)
        try c.encode(hint, forKey: .hint)
    }
}
