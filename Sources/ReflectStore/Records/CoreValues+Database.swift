import Foundation
import GRDB
import ReflectCore

// How ReflectCore's values are stored in a column. Each is stored as the
// same text as before records were typed (the on-disk format is unchanged);
// a stored value this version does not know decodes to nil here, which GRDB
// turns into a thrown, per-row `RowDecodingError` — never a crash, never a
// default.

extension StepID: DatabaseValueConvertible {
    public var databaseValue: DatabaseValue { rawValue.databaseValue }

    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> StepID? {
        String.fromDatabaseValue(dbValue).flatMap(StepID.init)
    }
}

extension PromptKind: DatabaseValueConvertible {}
extension SafetyCategory: DatabaseValueConvertible {}
extension DistortionType: DatabaseValueConvertible {}
extension Mood: DatabaseValueConvertible {}
extension ChecklistMark: DatabaseValueConvertible {}
extension CravingNote.Kind: DatabaseValueConvertible {}
extension Theme: DatabaseValueConvertible {}

/// An answer is stored as its JSON (`AnswerValue`'s coding, keys sorted):
/// `7`, `"The meeting"`, `{"skipped":true}`.
extension AnswerValue: DatabaseValueConvertible {
    public var databaseValue: DatabaseValue {
        // Encoding an AnswerValue cannot fail (no floats); NULL would be
        // refused by the column's NOT NULL, never stored silently.
        storedJSON?.databaseValue ?? .null
    }

    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> AnswerValue? {
        guard let json = String.fromDatabaseValue(dbValue) else { return nil }
        return try? JSONDecoder().decode(AnswerValue.self, from: Data(json.utf8))
    }
}
