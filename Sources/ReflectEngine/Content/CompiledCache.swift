import Foundation
import ReflectCore
#if canImport(Glibc)
import Glibc
#endif

/// Compiled safety gates kept on disk between runs, so that a start does
/// not expand and compile every crisis list again (German alone expands to
/// about 14,000 phrases).
///
/// - **Key**: SHA-256 of everything the gate is compiled from (each
///   layer's mode, phrases, slots, benign idioms and negations, in a fixed
///   order), the compiled format and the running executable's size and
///   modification time. Editing a list, or installing a new build, makes a
///   new key: a stale gate is never used.
/// - **Safe against damage**: a file carries its length and a checksum of
///   its contents, and the compiled gate is checked for consistency when
///   read; a truncated, corrupt or foreign file is ignored and replaced by
///   a freshly compiled gate.
/// - **Where**: `$REFLECT_CACHE_DIR`, else `$XDG_CACHE_HOME/reflect`, else
///   `~/.cache/reflect`. `REFLECT_CACHE_DIR=` (empty) turns caching off. A
///   directory that cannot be written only costs the time of compiling.
///   Files are written whole and renamed into place, so a reader never
///   sees half a file; an older file for the same locale chain is removed.
public struct CompiledCache: Sendable {
    public let directory: URL?

    public init(directory: URL?) { self.directory = directory }

    /// No caching: every gate is compiled.
    public static let none = CompiledCache(directory: nil)

    /// The cache directory of the environment (see the type's notes).
    public static var standard: CompiledCache {
        let env = ProcessInfo.processInfo.environment
        if let dir = env["REFLECT_CACHE_DIR"] { return CompiledCache(directory: dir.isEmpty ? nil : URL(fileURLWithPath: dir)) }
        if let xdg = env["XDG_CACHE_HOME"], !xdg.isEmpty {
            return CompiledCache(directory: URL(fileURLWithPath: xdg).appendingPathComponent("reflect"))
        }
        guard let home = env["HOME"], !home.isEmpty else { return .none }
        return CompiledCache(directory: URL(fileURLWithPath: home).appendingPathComponent(".cache/reflect"))
    }

    /// The gate over `layers`: read from the cache when a file for exactly
    /// these lists exists and is intact, else compiled (and stored).
    /// `name` tells the locale chain's files apart (`de-en`).
    public func gate(_ layers: [(data: SafetyData, mode: PhraseMatcher.Mode)], name: String) throws(LexiconError) -> SafetyGate {
        guard let directory else { return try SafetyGate(layers: layers) }
        let key = CompiledCache.key(layers)
        let file = directory.appendingPathComponent("gate-\(name)-\(key).bin")
        if let payload = CompiledCache.read(file), let gate = SafetyGate(compiled: payload) { return gate }
        let gate = try SafetyGate(layers: layers)
        CompiledCache.write(gate.compiled(), to: file, replacing: "gate-\(name)-", in: directory)
        return gate
    }

    // MARK: - Locale chains

    /// The cached form of a locale chain whose files are `files` (tag and
    /// bytes, most specific first), when one is on disk and intact.
    func language(files: [(tag: String, bytes: Data)]) -> CompiledLanguageFile? {
        guard let directory else { return nil }
        let key = CompiledCache.key(files: files)
        return CompiledLanguageFile.open(directory.appendingPathComponent("lang-\(CompiledCache.chainName(files))-\(key).bin").path,
                                         key: key)
    }

    /// Keeps `chain` (read from `files`) and its compiled parts on disk.
    func store(_ chain: [LocaleData], parts: LanguageParts, files: [(tag: String, bytes: Data)]) {
        guard let directory else { return }
        let key = CompiledCache.key(files: files), name = CompiledCache.chainName(files)
        CompiledCache.writeFile(CompiledLanguageFile.bytes(chain: chain, parts: parts, key: key),
                                to: directory.appendingPathComponent("lang-\(name)-\(key).bin"), replacing: "lang-\(name)-", in: directory)
    }

    static func chainName(_ files: [(tag: String, bytes: Data)]) -> String { files.map(\.tag).joined(separator: "-") }

    /// A hash of the locale files' bytes, the compiled format and the
    /// running executable: any edit to a file of the chain, or a new build,
    /// names a new file.
    static func key(files: [(tag: String, bytes: Data)]) -> String {
        var h = ContentHash()
        h.add("reflect.language.\(CompiledLanguageFile.format)\u{1F}\(executableIdentity)\u{1F}")
        for (tag, bytes) in files {
            h.add("\(tag)\u{1F}\(bytes.count)\u{1F}")
            bytes.withUnsafeBytes { h.add($0) }
        }
        return h.hex
    }

    // MARK: - Key

    static func key(_ layers: [(data: SafetyData, mode: PhraseMatcher.Mode)]) -> String {
        var m: [UInt8] = []
        func add(_ s: String) {
            m.append(contentsOf: s.utf8)
            m.append(0x1F)
        }
        func add(_ lists: [String: [String]]) {
            for k in lists.keys.sorted() {
                add(k)
                for v in lists[k] ?? [] { add(v) }
                m.append(0x1E)
            }
            m.append(0x1D)
        }
        add("reflect.gate.\(SafetyGate.compiledFormat)")
        add(executableIdentity)
        for (data, mode) in layers {
            add(mode.rawValue)
            add(data.phrases)
            add(data.slots)
            add(["benign": data.benign, "negations": data.negations, "negations_after": data.negationsAfter,
                 "negations_after_scope": [data.negationsAfterScope.rawValue], "negations_void": data.negationsVoid,
                 "benign_unless": data.benignUnless])
        }
        return SHA256.digest(m).prefix(16).map { String(format: "%02x", $0) }.joined()
    }

    /// Size and modification time of the running executable: a rebuilt
    /// Reflect (which may normalise or compile differently) gets new keys.
    static let executableIdentity: String = {
        #if canImport(Glibc)
        var st = stat()
        if stat("/proc/self/exe", &st) == 0 {
            return "\(st.st_size).\(st.st_mtim.tv_sec).\(st.st_mtim.tv_nsec)"
        }
        #endif
        return CommandLine.arguments.first ?? "?"
    }()

    // MARK: - Files

    private static let magic: [UInt8] = Array("RFCC".utf8)

    /// The payload of a cache file, or nil if it is missing, truncated or
    /// does not match its checksum.
    static func read(_ file: URL) -> [UInt8]? {
        guard let data = try? Data(contentsOf: file), data.count >= 20 else { return nil }
        return data.withUnsafeBytes { (b: UnsafeRawBufferPointer) -> [UInt8]? in
            guard Array(b[0..<4]) == magic else { return nil }
            let length = UInt64(littleEndian: b.loadUnaligned(fromByteOffset: 4, as: UInt64.self))
            let sum = UInt64(littleEndian: b.loadUnaligned(fromByteOffset: 12, as: UInt64.self))
            guard length == UInt64(b.count - 20) else { return nil }
            let payload = UnsafeRawBufferPointer(rebasing: b[20...])
            guard checksum(payload) == sum else { return nil }
            return Array(payload)
        }
    }

    static func write(_ payload: [UInt8], to file: URL, replacing prefix: String, in directory: URL) {
        var out = magic
        withUnsafeBytes(of: UInt64(payload.count).littleEndian) { out.append(contentsOf: $0) }
        let sum = payload.withUnsafeBytes { checksum($0) }
        withUnsafeBytes(of: sum.littleEndian) { out.append(contentsOf: $0) }
        out += payload
        writeFile(out, to: file, replacing: prefix, in: directory)
    }

    /// Writes `out` whole under a temporary name and renames it into place;
    /// removes the other files starting with `prefix`.
    static func writeFile(_ out: [UInt8], to file: URL, replacing prefix: String, in directory: URL) {
        let fm = FileManager.default
        do {
            try fm.createDirectory(at: directory, withIntermediateDirectories: true)
            let temp = directory.appendingPathComponent(".\(file.lastPathComponent).\(ProcessInfo.processInfo.processIdentifier).tmp")
            try Data(out).write(to: temp)
            if rename(temp.path, file.path) != 0 {
                try? fm.removeItem(at: temp)
                return
            }
            for old in (try? fm.contentsOfDirectory(atPath: directory.path)) ?? []
            where old.hasPrefix(prefix) && old != file.lastPathComponent {
                try? fm.removeItem(at: directory.appendingPathComponent(old))
            }
        } catch {
            // A cache that cannot be written costs only the compile.
        }
    }

    /// A 64-bit checksum over 8-byte words (fast enough for megabytes at
    /// start-up; it detects damage, it is not a security measure).
    static func checksum(_ b: UnsafeRawBufferPointer) -> UInt64 {
        var h: UInt64 = 0x9E37_79B9_7F4A_7C15 ^ UInt64(b.count)
        var i = 0
        while i + 8 <= b.count {
            let w = UInt64(littleEndian: b.loadUnaligned(fromByteOffset: i, as: UInt64.self))
            h = (h ^ w) &* 0xFF51_AFD7_ED55_8CCD
            h ^= h >> 29
            i += 8
        }
        while i < b.count {
            h = (h ^ UInt64(b[i])) &* 0x1000_0000_01B3
            i += 1
        }
        return h ^ (h >> 32)
    }
}
