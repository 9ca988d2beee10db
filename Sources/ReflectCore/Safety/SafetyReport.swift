/// Precision, recall and F1 per label of a classifier run over labelled
/// text (`reflect safety --report`): what a translator reads to measure
/// their lists. Labels are strings so that the crisis gate (`ok` or a
/// ``SafetyCategory``) and the output filter (`ok` or an
/// ``OutputFilter/Reason``) share it. `ok` is the negative label.
public struct SafetyReport: Sendable, Equatable {
    /// One label's counts.
    public struct Row: Sendable, Equatable {
        public var label: String
        /// Lines labelled with it.
        public var support = 0
        public var truePositives = 0
        public var falsePositives = 0
        public var falseNegatives = 0

        /// 1 when nothing was predicted (no false alarm was raised).
        public var precision: Double {
            truePositives + falsePositives == 0 ? 1 : Double(truePositives) / Double(truePositives + falsePositives)
        }
        /// 1 when nothing carries the label.
        public var recall: Double {
            truePositives + falseNegatives == 0 ? 1 : Double(truePositives) / Double(truePositives + falseNegatives)
        }
        public var f1: Double {
            let p = precision, r = recall
            return p + r == 0 ? 0 : 2 * p * r / (p + r)
        }
    }

    public static let negative = "ok"

    /// One row per label, in the order given to ``init(labels:pairs:)``
    /// (labels never seen are kept, with zero counts).
    public var rows: [Row]
    /// Detection regardless of label: anything but `ok` counts as flagged.
    public var any: Row
    /// Lines labelled `ok`, and those of them that were flagged.
    public var negatives = 0
    public var falseAlarms = 0

    /// `pairs` are (expected, predicted) labels, one per line.
    public init(labels: [String], pairs: [(expected: String, predicted: String)]) {
        var rows = labels.filter { $0 != SafetyReport.negative }.map { Row(label: $0) }
        var any = Row(label: "any")
        func index(_ label: String) -> Int {
            if let i = rows.firstIndex(where: { $0.label == label }) { return i }
            rows.append(Row(label: label))
            return rows.count - 1
        }
        for (expected, predicted) in pairs {
            let e = expected != SafetyReport.negative, p = predicted != SafetyReport.negative
            if e { rows[index(expected)].support += 1; any.support += 1 } else { negatives += 1 }
            if !e && p { falseAlarms += 1 }
            switch (e, p) {
            case (true, true): any.truePositives += 1
            case (false, true): any.falsePositives += 1
            case (true, false): any.falseNegatives += 1
            case (false, false): break
            }
            if expected == predicted {
                if e { rows[index(expected)].truePositives += 1 }
            } else {
                if e { rows[index(expected)].falseNegatives += 1 }
                if p { rows[index(predicted)].falsePositives += 1 }
            }
        }
        self.rows = rows
        self.any = any
    }

    /// Share of `ok` lines that were flagged (0 when there are none).
    public var falseAlarmRate: Double { negatives == 0 ? 0 : Double(falseAlarms) / Double(negatives) }

    /// The table as printed by `reflect safety --report`.
    public func table(title: String) -> String {
        func pct(_ x: Double) -> String { String(format: "%.2f", x) }
        func pad(_ s: String, _ n: Int, left: Bool = false) -> String {
            let fill = String(repeating: " ", count: max(0, n - s.count))
            return left ? s + fill : fill + s
        }
        let width = max(16, (rows.map(\.label.count).max() ?? 0) + 2)
        var out = title + "\n"
        out += pad("label", width, left: true) + pad("lines", 7) + pad("TP", 6) + pad("FP", 6) + pad("FN", 6)
            + pad("precision", 11) + pad("recall", 8) + pad("F1", 7) + "\n"
        for row in rows + [any] {
            out += pad(row.label, width, left: true) + pad("\(row.support)", 7) + pad("\(row.truePositives)", 6)
                + pad("\(row.falsePositives)", 6) + pad("\(row.falseNegatives)", 6)
                + pad(pct(row.precision), 11) + pad(pct(row.recall), 8) + pad(pct(row.f1), 7) + "\n"
        }
        out += "false alarms: \(falseAlarms) of \(negatives) ok lines (" + String(format: "%.1f", falseAlarmRate * 100) + "%)\n"
        return out
    }
}
