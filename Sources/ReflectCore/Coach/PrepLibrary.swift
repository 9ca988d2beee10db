import Foundation

/// The Prep Library's rules, pure: its default items, which are core, what
/// an item's text may be, and what "today's checklist" is.
public enum PrepLibrary {
    /// The default items, in order, with their locale keys.
    public static let defaults: [PrepItem] = [
        PrepItem(id: "sticky_notes", label: .key("coach.prep.item.sticky_notes"), core: false),
        PrepItem(id: "produce", label: .key("coach.prep.item.produce"), core: true),
        PrepItem(id: "water", label: .key("coach.prep.item.water"), core: true),
        PrepItem(id: "breakfast", label: .key("coach.prep.item.breakfast"), core: true),
    ]

    /// The longest item text, in characters: a checklist line, not a note.
    public static let maxTextLength = 200
    /// The most items a library holds (a checklist shows at most 100).
    public static let maxItems = 100

    /// The text as it will be stored (trimmed), or why it cannot be.
    public static func validText(_ raw: String) throws(PrepError) -> String {
        let text = raw.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !text.isEmpty else { throw .emptyText }
        guard text.count <= maxTextLength else { throw .textTooLong(characters: text.count, max: maxTextLength) }
        guard !text.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw .controlCharacters
        }
        return text
    }

    /// Today's checklist: the active items, in library order.
    public static func checklist(_ items: [PrepItem], on day: CalendarDay?) -> [PrepItem] {
        items.filter { $0.isActive(on: day) }
    }
}

/// Why a Prep Library change was refused; nothing was changed.
public enum PrepError: Error, Sendable, Equatable, CustomStringConvertible {
    case unknownItem(String, known: [String])
    case coreItem(String)
    case emptyText
    case textTooLong(characters: Int, max: Int)
    case controlCharacters
    case invalidPosition(Int, count: Int)
    case libraryFull(max: Int)
    case notArchived(String)
    case alreadyArchived(String)

    public var code: String {
        switch self {
        case .unknownItem: "prep.unknown_item"
        case .coreItem: "prep.core_item"
        case .emptyText: "prep.empty_text"
        case .textTooLong: "prep.text_too_long"
        case .controlCharacters: "prep.control_characters"
        case .invalidPosition: "prep.invalid_position"
        case .libraryFull: "prep.library_full"
        case .notArchived: "prep.not_archived"
        case .alreadyArchived: "prep.already_archived"
        }
    }

    public var description: String {
        switch self {
        case .unknownItem(let id, let known):
            "no prep item '\(id.prefix(64))' (items: \(known.joined(separator: ", "))); nothing was changed"
        case .coreItem(let id):
            "'\(id)' is a core item: it can be hidden for today (reflect prep hide \(id)) but not archived; nothing was changed"
        case .emptyText: "a prep item needs some text; nothing was changed"
        case .textTooLong(let n, let max):
            "a prep item is one short line: \(n) characters is more than \(max); nothing was changed"
        case .controlCharacters: "a prep item is one line of text, without control characters; nothing was changed"
        case .invalidPosition(let p, let count): "position \(p) is not 1–\(count); nothing was changed"
        case .libraryFull(let max): "the Prep Library holds at most \(max) items; archive one first; nothing was changed"
        case .notArchived(let id): "'\(id)' is not archived; nothing was changed"
        case .alreadyArchived(let id): "'\(id)' is already archived; nothing was changed"
        }
    }
}
