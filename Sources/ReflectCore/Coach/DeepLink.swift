import Foundation

/// A `reflect://` link a notification or a calendar event opens
/// (docs/coach.md, "Reminders and deep links").
public enum DeepLink: String, Sendable, CaseIterable, Codable {
    /// The evening check-in (its prep).
    case prepTonight
    /// The morning check-in, after a summary of last night's marks.
    case reviewPrep
    /// The I Need Help flow.
    case needHelp
    /// The weekly parts letter (optional, once a week; docs/journal.md).
    case partsLetter

    public static let scheme = "reflect://"

    /// `reflect://needHelp` (a trailing `/` is allowed); throws for anything else.
    public init(url: String) throws(DeepLinkError) {
        let text = url.trimmingCharacters(in: .whitespaces)
        guard text.hasPrefix(DeepLink.scheme) else { throw .notAReflectLink(url) }
        var name = String(text.dropFirst(DeepLink.scheme.count))
        if name.hasSuffix("/") { name.removeLast() }
        guard let link = DeepLink(rawValue: name) else { throw .unknown(url) }
        self = link
    }

    public var url: String { DeepLink.scheme + rawValue }

    /// The flow the link starts.
    public var flowID: String {
        switch self {
        case .prepTonight: "coach.evening"
        case .reviewPrep: "coach.morning"
        case .needHelp: "coach.need-help"
        case .partsLetter: "journal.parts-letter"
        }
    }
}

/// A link that cannot be opened; nothing was started.
public enum DeepLinkError: Error, Sendable, Equatable, CustomStringConvertible {
    case notAReflectLink(String)
    case unknown(String)

    public var code: String { "link.unknown" }

    public var description: String {
        let known = DeepLink.allCases.map(\.url).joined(separator: ", ")
        switch self {
        case .notAReflectLink(let s): return "'\(s.prefix(100))' is not a reflect:// link (links: \(known))"
        case .unknown(let s): return "unknown link '\(s.prefix(100))' (links: \(known))"
        }
    }
}
