import Foundation

/// How well a detector labels a labelled set of thoughts
/// (`reflect detect --report FILE`).
///
/// The file has one thought per line: `text TAB type`, where type is one of
/// the six distortions or `unknown` (undistorted, or outside the six).
/// Blank lines and lines starting with `#` are skipped.
///
/// Figures:
/// - per type: precision (of the thoughts it named that type, the share
///   labelled so), recall (of the thoughts labelled that type, the share it
///   named so), F1, and coverage (of the thoughts labelled that type, the
///   share it named *any* type for);
/// - coverage: of the distorted thoughts (label ≠ unknown), the share the
///   detector names a type for;
/// - precision when routed: of all thoughts it names a type for (an
///   `unknown` thought included), the share named correctly;
/// - false routes: `unknown` thoughts it named a type for.
public struct DistortionReport: Sendable, Equatable {
    public struct Row: Sendable, Equatable {
        public var type: DistortionType
        /// Thoughts labelled this type.
        public var labelled: Int
        /// Thoughts the detector named this type.
        public var named: Int
        /// Labelled and named this type.
        public var correct: Int
        /// Labelled this type and named any type.
        public var routed: Int

        public var precision: Double { named == 0 ? 0 : Double(correct) / Double(named) }
        public var recall: Double { labelled == 0 ? 0 : Double(correct) / Double(labelled) }
        public var f1: Double { precision + recall == 0 ? 0 : 2 * precision * recall / (precision + recall) }
        public var coverage: Double { labelled == 0 ? 0 : Double(routed) / Double(labelled) }
    }

    /// One labelled thought the detector got wrong.
    public struct Miss: Sendable, Equatable {
        public var line: Int
        public var text: String
        public var expected: DistortionType
        public var got: DistortionDetection
    }

    /// The six types, in ``DistortionType`` order.
    public var rows: [Row]
    public var thoughts: Int
    /// Thoughts labelled `unknown`.
    public var undistorted: Int
    /// Thoughts labelled `unknown` that were named a type.
    public var falseRoutes: Int
    public var misses: [Miss]

    public var distorted: Int { thoughts - undistorted }
    public var routedDistorted: Int { rows.reduce(0) { $0 + $1.routed } }
    public var routed: Int { routedDistorted + falseRoutes }
    public var correct: Int { rows.reduce(0) { $0 + $1.correct } }
    /// Share of distorted thoughts named any type.
    public var coverage: Double { distorted == 0 ? 0 : Double(routedDistorted) / Double(distorted) }
    /// Share of named thoughts named correctly.
    public var precisionWhenRouted: Double { routed == 0 ? 0 : Double(correct) / Double(routed) }
    public var macroF1: Double { rows.isEmpty ? 0 : rows.reduce(0) { $0 + $1.f1 } / Double(rows.count) }

    /// A line of the labelled file that cannot be read.
    public struct ParseError: Error, Sendable, Equatable, CustomStringConvertible {
        public var line: Int
        public var message: String
        public var description: String { "line \(line): \(message)" }
    }

    /// The labelled thoughts of a file's text, with their line numbers.
    public static func parse(_ text: String) throws(ParseError) -> [(line: Int, text: String, type: DistortionType)] {
        var out: [(line: Int, text: String, type: DistortionType)] = []
        for (n, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.hasSuffix("\r") ? raw.dropLast() : raw
            if line.allSatisfy({ $0 == " " || $0 == "\t" }) || line.hasPrefix("#") { continue }
            guard let tab = line.lastIndex(of: "\t") else {
                throw ParseError(line: n + 1, message: "expected 'thought<TAB>type'")
            }
            let label = line[line.index(after: tab)...].trimmingCharacters(in: .whitespaces)
            guard let type = DistortionType(rawValue: label) else {
                throw ParseError(line: n + 1, message: "unknown type '\(label)' (expected one of "
                    + DistortionType.allCases.map(\.rawValue).joined(separator: ", ") + ")")
            }
            let thought = String(line[..<tab])
            guard !thought.trimmingCharacters(in: .whitespaces).isEmpty else {
                throw ParseError(line: n + 1, message: "empty thought")
            }
            out.append((n + 1, thought, type))
        }
        return out
    }

    /// Labels every thought with `detector` and counts.
    public init(_ items: [(line: Int, text: String, type: DistortionType)], detector: DistortionDetector) {
        let types = DistortionType.allCases.filter { $0 != .unknown }
        var rows = types.map { Row(type: $0, labelled: 0, named: 0, correct: 0, routed: 0) }
        func index(_ t: DistortionType) -> Int? { types.firstIndex(of: t) }
        var undistorted = 0, falseRoutes = 0
        var misses: [Miss] = []
        for item in items {
            let got = detector.detection(item.text)
            if let g = index(got.type) { rows[g].named += 1 }
            if let e = index(item.type) {
                rows[e].labelled += 1
                if got.type != .unknown { rows[e].routed += 1 }
                if got.type == item.type { rows[e].correct += 1 }
            } else {
                undistorted += 1
                if got.type != .unknown { falseRoutes += 1 }
            }
            if got.type != item.type { misses.append(Miss(line: item.line, text: item.text, expected: item.type, got: got)) }
        }
        self.rows = rows
        thoughts = items.count
        self.undistorted = undistorted
        self.falseRoutes = falseRoutes
        self.misses = misses
    }

    /// The figures as a markdown table and a summary line (what
    /// docs/distortions.md shows per locale).
    public var markdown: String {
        func n(_ x: Double) -> String { String(format: "%.2f", x) }
        var out = "| type | labelled | named | precision | recall | F1 | coverage |\n| --- | ---: | ---: | ---: | ---: | ---: | ---: |\n"
        for row in rows {
            out += "| \(row.type.rawValue) | \(row.labelled) | \(row.named) | \(n(row.precision)) | \(n(row.recall)) | \(n(row.f1)) | \(n(row.coverage)) |\n"
        }
        out += "\nCoverage **\(n(coverage))** (\(routedDistorted) of \(distorted) distorted thoughts named a type), "
        out += "precision when routed **\(n(precisionWhenRouted))** (\(correct) of \(routed)), "
        out += "false routes \(falseRoutes) of \(undistorted) unknown thoughts, macro F1 \(n(macroF1)).\n"
        return out
    }
}
