/// A setting that cannot be set: which key, the value given, and what is
/// legal. Nothing was changed.
public enum SettingsError: Error, Sendable, Equatable, CustomStringConvertible {
    case unknownKey(String)
    case invalidValue(key: SettingKey, value: String, reason: String)

    /// A stable code for scripts.
    public var code: String {
        switch self {
        case .unknownKey: "settings.unknown_key"
        case .invalidValue: "settings.invalid_value"
        }
    }

    public var description: String {
        switch self {
        case .unknownKey(let name):
            "unknown setting '\(name.prefix(64))' (settings: \(SettingKey.allCases.map(\.rawValue).joined(separator: ", ")))"
        case .invalidValue(let key, let value, let reason):
            "\(key.rawValue): '\(value.prefix(64))' \(reason); expected \(key.legalValues). Nothing was changed."
        }
    }
}
