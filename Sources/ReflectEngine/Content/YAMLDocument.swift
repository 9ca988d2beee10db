import Yams

/// A YAML file read as nodes, so that every error names the file and the
/// line of the value at fault.
package struct YAMLDocument {
    package let file: String
    package let root: Node

    package init(text: String, file: String) throws(EngineError) {
        self.file = file
        do {
            guard let node = try Yams.compose(yaml: text) else {
                throw EngineError.invalidContent(file: file, line: 1, message: "the file is empty")
            }
            root = node
        } catch let e as EngineError {
            throw e
        } catch let e as YamlError {
            throw YAMLDocument.translate(e, file: file)
        } catch {
            throw .invalidContent(file: file, line: nil, message: "\(error)")
        }
    }

    package static func translate(_ error: YamlError, file: String) -> EngineError {
        switch error {
        case .scanner(let context, let problem, let mark, _), .parser(let context, let problem, let mark, _),
             .composer(let context, let problem, let mark, _):
            let detail = context.map { "\(problem) (\($0.text))" } ?? problem
            return .invalidContent(file: file, line: mark.line, message: "malformed YAML: \(detail)")
        case .duplicatedKeysInMapping(let duplicates, let context):
            let keys = duplicates.map { "'\($0)'" }.joined(separator: ", ")
            return .invalidContent(file: file, line: context.mark.line, message: "\(keys) appears twice in the same mapping")
        case .reader(let problem, let offset, _, let yaml):
            // libyaml's reader names a byte offset (a control character, a NUL).
            return .invalidContent(file: file, line: offset.map { ContentText.line(ofByte: $0, in: yaml) },
                                   message: "malformed YAML: \(problem)")
        default:
            return .invalidContent(file: file, line: nil, message: "malformed YAML: \(error)")
        }
    }

    package func fail(_ node: Node?, _ message: String) -> EngineError {
        .invalidContent(file: file, line: node?.mark?.line, message: message)
    }

    /// The mapping at `node`, as ordered (key, key node, value) triples.
    package func mapping(_ node: Node, _ what: String) throws(EngineError) -> [(key: String, keyNode: Node, value: Node)] {
        guard let m = node.mapping else { throw fail(node, "\(what) must be a mapping (key: value)") }
        var out: [(String, Node, Node)] = []
        var seen = Set<String>()
        for (k, v) in m {
            guard let key = k.string else { throw fail(k, "\(what): keys must be text") }
            guard seen.insert(key).inserted else { throw fail(k, "\(what): '\(key)' appears twice") }
            out.append((key, k, v))
        }
        return out
    }

    package func string(_ node: Node, _ what: String) throws(EngineError) -> String {
        guard let s = node.scalar?.string else { throw fail(node, "\(what) must be text") }
        return s
    }

    package func strings(_ node: Node, _ what: String) throws(EngineError) -> [String] {
        guard let seq = node.sequence else { throw fail(node, "\(what) must be a list") }
        var out: [String] = []
        for item in seq { out.append(try string(item, what)) }
        return out
    }

    package func int(_ node: Node, _ what: String) throws(EngineError) -> Int {
        guard let s = node.scalar?.string, let i = Int(s) else { throw fail(node, "\(what) must be a whole number") }
        return i
    }
}
