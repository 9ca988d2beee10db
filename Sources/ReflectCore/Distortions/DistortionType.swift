/// The cognitive distortions the detector names (docs/distortions.md). `unknown` means
/// none was recognised: flows then ask a generic perspective question.
public enum DistortionType: String, Sendable, Codable, CaseIterable {
    case overgeneralization
    case shouldStatement = "should_statement"
    case labeling
    case personalization
    case catastrophizing
    case mindReading = "mind_reading"
    case unknown
}
