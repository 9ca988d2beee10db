/// The tone of reminder notifications (docs/coach.md, "Reminders"):
/// `nice` is gentle; `rude` is playful heckling, never shaming and never
/// about weight, food or the body. It is used for notification copy only,
/// never in flows, crisis text or validation lines.
public enum NotificationVoice: String, Sendable, Codable, CaseIterable {
    case nice, rude
}
