import Foundation
import ReflectCore
#if canImport(Glibc)
import Glibc
#endif

/// One locale chain kept on disk by ``CompiledCache``: the parsed locale
/// files (``LocaleData``, so a start parses no YAML) and the compiled
/// detector, theme tagger, safety gate and output filter, each in its own
/// section with its own checksum.
///
/// Opening reads and checks only the header and the locale data; each
/// compiled part is read (and checked) when the language first needs it,
/// so a run's first prompt costs neither reading nor checking the
/// megabytes of a gate. A damaged section yields nil and the caller
/// compiles that part instead.
///
/// Layout: `RFLC`, format, section count, the key the file was written
/// under (32 bytes: a file copied to another chain's name is not used),
/// then per section its kind, offset, length and checksum, then a checksum
/// of everything before it; the sections follow. Offsets are checked
/// against the file's size.
final class CompiledLanguageFile: Sendable {
    enum Section: UInt32, CaseIterable {
        case locales = 1, detector, themes, gate, outputFilter
    }

    static let magic: [UInt8] = Array("RFLC".utf8)
    /// Bumped whenever the layout, the checksum or any part's compiled form changes.
    static let format: UInt32 = 2 &+ LocaleData.compiledFormat &* 16 &+ DistortionDetector.compiledFormat &* 256
        &+ SafetyGate.compiledFormat &* 4096

    private struct Entry: Sendable {
        let offset: Int
        let length: Int
        let checksum: UInt64
    }

    private let fd: Int32
    private let entries: [UInt32: Entry]
    /// The chain as written (most specific first, English last).
    let chain: [LocaleData]

    private init(fd: Int32, entries: [UInt32: Entry], chain: [LocaleData]) {
        self.fd = fd
        self.entries = entries
        self.chain = chain
    }

    deinit { close(fd) }

    /// The file at `path` when it was written under `key` and its header
    /// and locale data are intact; nil when it is missing, truncated,
    /// damaged, foreign or not of this format.
    static func open(_ path: String, key: String) -> CompiledLanguageFile? {
        let fd = Glibc.open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        var st = stat()
        guard fstat(fd, &st) == 0, let table = readTable(fd, size: Int(st.st_size), key: key),
              let locales = table[Section.locales.rawValue], let bytes = read(fd, locales) else {
            close(fd)
            return nil
        }
        let chain: [LocaleData]? = bytes.withUnsafeBytes { raw in
            var r = CompiledReader(raw)
            guard let n = r.count(minimumSize: 16), n <= 8 else { return nil }
            var out: [LocaleData] = []
            for _ in 0..<n {
                guard let d = LocaleData(reading: &r) else { return nil }
                out.append(d)
            }
            return r.atEnd ? out : nil
        }
        guard let chain, !chain.isEmpty else {
            close(fd)
            return nil
        }
        return CompiledLanguageFile(fd: fd, entries: table, chain: chain)
    }

    static let headLength = 12 + 32

    private static func readTable(_ fd: Int32, size: Int, key: String) -> [UInt32: Entry]? {
        guard size >= headLength else { return nil }
        var head = [UInt8](repeating: 0, count: 12)
        guard pread(fd, &head, 12, 0) == 12, Array(head[0..<4]) == magic else { return nil }
        let (format, count): (UInt32?, Int?) = head.withUnsafeBytes { raw in
            var r = CompiledReader(raw, offset: 4)
            return (r.u32(), r.u32().map(Int.init))
        }
        guard format == CompiledLanguageFile.format, let count, count <= Section.allCases.count else { return nil }
        let tableLength = headLength + count * 28 + 8
        guard size >= tableLength else { return nil }
        var table = [UInt8](repeating: 0, count: tableLength)
        guard pread(fd, &table, tableLength, 0) == tableLength else { return nil }
        return table.withUnsafeBytes { raw -> [UInt32: Entry]? in
            guard ContentHash.checksum(UnsafeRawBufferPointer(rebasing: raw[0..<tableLength - 8]))
                    == raw.loadUnaligned(fromByteOffset: tableLength - 8, as: UInt64.self).littleEndian else { return nil }
            guard Array(raw[12..<headLength]) == CompiledLanguageFile.keyBytes(key) else { return nil }
            var r = CompiledReader(raw, offset: headLength)
            var out: [UInt32: Entry] = [:]
            for _ in 0..<count {
                guard let kind = r.u32(), let offset = r.u64(), let length = r.u64(), let sum = r.u64(),
                      offset >= UInt64(tableLength), length <= UInt64(size), offset <= UInt64(size) - length else { return nil }
                out[kind] = Entry(offset: Int(offset), length: Int(length), checksum: sum)
            }
            return out
        }
    }

    /// A section's bytes, when they match their checksum. (Read into
    /// uninitialised storage: a gate's section is megabytes, and filling it
    /// with zeros first cost as much as checksumming it.)
    private static func read(_ fd: Int32, _ e: Entry) -> [UInt8]? {
        var complete = true
        let bytes = [UInt8](unsafeUninitializedCapacity: e.length) { buffer, count in
            var done = 0
            while done < e.length, let base = buffer.baseAddress {
                let n = pread(fd, base + done, e.length - done, off_t(e.offset + done))
                guard n > 0 else { break }
                done += n
            }
            // Only what was read is initialised; a short read is refused.
            count = done
            complete = done == e.length
        }
        guard complete, bytes.withUnsafeBytes({ ContentHash.checksum($0) == e.checksum }) else { return nil }
        return bytes
    }

    private func section<T>(_ s: Section, _ decode: (inout CompiledReader) -> T?) -> T? {
        guard let e = entries[s.rawValue], let bytes = CompiledLanguageFile.read(fd, e) else { return nil }
        return bytes.withUnsafeBytes { raw in
            var r = CompiledReader(raw)
            guard let v = decode(&r), r.atEnd else { return nil }
            return v
        }
    }

    /// The detector (`.some(nil)`: the chain has no distortion lists), or
    /// nil when the section is damaged.
    func detector() -> DistortionDetector?? {
        section(.detector) { r -> DistortionDetector?? in
            guard let present = r.bool() else { return nil }
            guard present else { return .some(nil) }
            guard let d = DistortionDetector(reading: &r) else { return nil }
            return .some(d)
        }
    }

    func themes() -> ThemeTagger? { section(.themes) { ThemeTagger(reading: &$0) } }

    func gate() -> SafetyGate? {
        guard let e = entries[Section.gate.rawValue], let bytes = CompiledLanguageFile.read(fd, e) else { return nil }
        return SafetyGate(compiled: bytes)
    }

    func outputFilter() -> OutputFilter? { section(.outputFilter) { OutputFilter(reading: &$0) } }

    // MARK: - Writing

    /// `key` as exactly 32 bytes.
    static func keyBytes(_ key: String) -> [UInt8] {
        let b = Array(key.utf8.prefix(32))
        return b + [UInt8](repeating: 0, count: 32 - b.count)
    }

    /// The file's bytes for `chain` and its compiled `parts` (compiling
    /// any part not compiled yet).
    static func bytes(chain: [LocaleData], parts: LanguageParts, key: String) -> [UInt8] {
        var sections: [(Section, [UInt8])] = []
        var w = CompiledWriter()
        w.u32(UInt32(chain.count))
        for d in chain { d.write(to: &w) }
        sections.append((.locales, w.bytes))
        w = CompiledWriter()
        w.bool(parts.detector.value != nil)
        parts.detector.value?.write(to: &w)
        sections.append((.detector, w.bytes))
        w = CompiledWriter()
        parts.themes.value.write(to: &w)
        sections.append((.themes, w.bytes))
        sections.append((.gate, parts.safety.value.compiled()))
        w = CompiledWriter()
        parts.outputFilter.value.write(to: &w)
        sections.append((.outputFilter, w.bytes))

        let tableLength = headLength + sections.count * 28 + 8
        var out = CompiledWriter()
        magic.withUnsafeBytes { out.raw($0) }
        out.u32(format)
        out.u32(UInt32(sections.count))
        keyBytes(key).withUnsafeBytes { out.raw($0) }
        var offset = tableLength
        for (kind, bytes) in sections {
            out.u32(kind.rawValue)
            out.u64(UInt64(offset))
            out.u64(UInt64(bytes.count))
            out.u64(bytes.withUnsafeBytes(ContentHash.checksum))
            offset += bytes.count
        }
        out.u64(out.bytes.withUnsafeBytes(ContentHash.checksum))
        var file = out.bytes
        for (_, bytes) in sections { file += bytes }
        return file
    }
}
