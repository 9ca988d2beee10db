/// Why a call into Lua failed, with what an author needs to fix it.
///
/// `chunk` is the display name the chunk was loaded under
/// (`flows/reflection/negative.lua`), never an absolute path; `line` is the
/// line in it. Messages are read without running any script code and are
/// truncated past about 1 KB.
public struct LuaError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        /// The chunk does not compile (or is a binary chunk).
        case syntax
        /// The script raised an error (including "unknown global 'x'").
        case runtime
        /// The state reached its memory cap.
        case memoryLimit
        /// The call ran out of instructions or time, or the host cancelled it.
        case budgetExceeded(Budget)
        /// The host refused something: a value that cannot cross, a closed
        /// state, a stale or foreign handle.
        case host(HostProblem)
    }

    public enum Budget: Sendable, Equatable {
        case instructions, wallClock, cancelled
    }

    public enum HostProblem: Sendable, Equatable {
        case invalidValue, closedState, foreignHandle, releasedHandle, misuse
    }

    public var kind: Kind
    public var message: String
    public var chunk: String?
    public var line: Int?
    public var frames: [LuaFrame]

    public init(kind: Kind, message: String, chunk: String? = nil, line: Int? = nil, frames: [LuaFrame] = []) {
        self.kind = kind
        self.message = message
        self.chunk = chunk
        self.line = line
        self.frames = frames
    }

    /// "chunk:line" when known.
    public var location: String? {
        guard let chunk else { return nil }
        return line.map { "\(chunk):\($0)" } ?? chunk
    }

    public var description: String {
        location.map { "\($0): \(message)" } ?? message
    }

    /// The message followed by a traceback, as an author would want to read it.
    public var report: String {
        var out = description
        if !frames.isEmpty {
            out += "\nstack traceback:"
            for f in frames { out += "\n\t\(f)" }
        }
        return out
    }
}

/// One frame of a Lua call stack.
public struct LuaFrame: Sendable, Equatable, CustomStringConvertible {
    public var source: String
    public var line: Int?
    public var function: String

    public var description: String {
        "\(source)\(line.map { ":\($0)" } ?? ""): in \(function)"
    }
}
