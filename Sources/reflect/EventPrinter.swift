import Foundation
import LuaHost
import ReflectCore
import ReflectEngine

/// Prints events for people (text) or programs (jsonl, one object per line).
struct EventPrinter {
    let format: Run.OutputFormat

    private static let encoder: JSONEncoder = {
        let e = JSONEncoder()
        e.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return e
    }()

    func print(_ events: [FlowEvent]) {
        for event in events {
            switch format {
            case .jsonl:
                if let data = try? EventPrinter.encoder.encode(event) {
                    FileHandle.standardOutput.write(data + Data("\n".utf8))
                }
            case .text:
                if let line = text(event) { FileHandle.standardOutput.write(Data((line + "\n").utf8)) }
            }
        }
    }

    /// Reports an engine error: the event on stdout (jsonl), and for people
    /// the message with its traceback on stderr.
    func fail(_ error: EngineError) {
        if format == .jsonl { print([error.event]) }
        var report = "error: \(error.description) [\(error.code)]"
        if case .lua(let lua) = error, !lua.frames.isEmpty {
            report += "\nstack traceback:" + lua.frames.map { "\n\t\($0)" }.joined()
        }
        FileHandle.standardError.write(Data((report + "\n").utf8))
    }

    private func text(_ event: FlowEvent) -> String? {
        switch event {
        case .prompt(let p):
            let progress = p.kind == .message ? "" : p.total.map { "[\(p.index)/\($0)] " } ?? "[\(p.index)] "
            let hint: String
            switch p.kind {
            case .text: hint = ""
            case .intensity: hint = " (0–10)"
            case .yesNo: hint = " (yes/no)"
            case .message: hint = " (press Enter)"
            }
            return "\n" + progress + p.text + hint
        case .invalid(_, let message): return "  ↳ " + message
        case .saved: return nil
        case .done: return "\nDone. Thank you for taking this time."
        case .error(let code, let message, let file, let line):
            let at = file.map { f in line.map { "\(f):\($0): " } ?? "\(f): " } ?? ""
            return "error: \(at)\(message) [\(code)]"
        }
    }
}
