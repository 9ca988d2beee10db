import Foundation

/// The stale-detection lock, after Yarn Spinner: a translation stores the
/// first 8 hex digits of the SHA-256 of the English text it translates
/// (`source: 3f2a91bc`). When the English text changes, the lock no longer
/// matches and the translation is stale until re-translated or confirmed.
/// Word lists carry a lock of their whole English section the same way.
public enum SourceLock {
    public static func of(_ text: String) -> String {
        String(SHA256.hex(text).prefix(8))
    }

    /// `sha256sum`-compatible check a translator can run by hand:
    /// `printf '%s' "English text" | sha256sum | cut -c1-8`.
    public static func matches(_ lock: String?, _ text: String) -> Bool {
        lock == of(text)
    }
}
