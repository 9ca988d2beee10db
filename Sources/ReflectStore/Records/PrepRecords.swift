import GRDB
import ReflectCore

/// A row of `prep_item`: one item of a person's Prep Library. `text` is
/// nil for a default item that keeps the locale's wording.
public struct PrepItemRecord: Codable, Sendable, Equatable, FetchableRecord, PersistableRecord {
    public static let databaseTableName = "prep_item"

    public var user: String
    public var id: String
    public var text: String?
    public var core: Bool
    public var position: Int
    public var archivedAt: String?
    public var hiddenOn: String?
    public var createdAt: String
    public var updatedAt: String

    public init(user: String, id: String, text: String?, core: Bool, position: Int, archivedAt: String? = nil,
                hiddenOn: String? = nil, createdAt: String, updatedAt: String) {
        self.user = user
        self.id = id
        self.text = text
        self.core = core
        self.position = position
        self.archivedAt = archivedAt
        self.hiddenOn = hiddenOn
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }

    enum CodingKeys: String, CodingKey {
        case user, id, text, core, position
        case archivedAt = "archived_at", hiddenOn = "hidden_on", createdAt = "created_at", updatedAt = "updated_at"
    }

    /// The item as the core sees it: a default item without its own text
    /// keeps its locale key; any other text is the person's, literal.
    public var item: PrepItem {
        let label: PrepItemLabel
        if let text { label = .literal(text) } else {
            label = PrepLibrary.defaults.first { $0.id == id }?.label ?? .literal(id)
        }
        return PrepItem(id: id, label: label, core: core, archived: archivedAt != nil, hiddenOn: hiddenOn.flatMap(CalendarDay.init))
    }
}

/// A row of `prep_mark`: one item's mark on one logical day.
public struct PrepMarkRecord: Codable, Sendable, Equatable, FetchableRecord, PersistableRecord {
    public static let databaseTableName = "prep_mark"

    public var user: String
    public var day: String
    public var itemID: String
    public var mark: ChecklistMark
    public var sessionID: String?
    public var markedAt: String

    public init(user: String, day: String, itemID: String, mark: ChecklistMark, sessionID: String?, markedAt: String) {
        self.user = user
        self.day = day
        self.itemID = itemID
        self.mark = mark
        self.sessionID = sessionID
        self.markedAt = markedAt
    }

    enum CodingKeys: String, CodingKey {
        case user, day, mark
        case itemID = "item_id", sessionID = "session_id", markedAt = "marked_at"
    }
}

/// A row of `craving_note`: what one I Need Help run stored.
public struct CravingNoteRecord: Codable, Sendable, Equatable, FetchableRecord, PersistableRecord {
    public static let databaseTableName = "craving_note"

    public var id: String
    public var user: String
    public var sessionID: String?
    public var type: CravingNote.Kind
    public var detail: String?
    public var day: String
    /// Local time, ISO-8601 with the person's offset.
    public var at: String
    public var text: String

    public init(id: String, user: String, sessionID: String?, type: CravingNote.Kind, detail: String?, day: String, at: String, text: String) {
        self.id = id
        self.user = user
        self.sessionID = sessionID
        self.type = type
        self.detail = detail
        self.day = day
        self.at = at
        self.text = text
    }

    enum CodingKeys: String, CodingKey {
        case id, user, type, detail, day, at, text
        case sessionID = "session_id"
    }
}
