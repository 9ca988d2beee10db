import ReflectCore
import Synchronization

/// The parsed templates of a language's locale keys, each parsed once per
/// ``Language`` (whose localizer, with its personality and experiment arms,
/// never changes): a prompt's key is looked up and parsed at its first use
/// in the process, not at every step of every session.
///
/// Kept in an open-addressed table found by an FNV-1a hash of the key's
/// bytes (a few instructions per byte, where a dictionary's seeded hash of
/// a key costs several hundred), compared by equality.
///
/// Contract: ``template(forKey:in:)`` returns exactly
/// `Template(localizer.string(key))`, or nil when the chain has no such
/// key. Bounded by the keys the chain has: a key found nowhere is not kept.
final class TemplateCache: Sendable {
    private struct Entry {
        var hash: UInt64
        var key: String
        var template: Template
    }

    private struct Slots {
        /// A power of two, at most half full.
        var entries: [Entry?] = Array(repeating: nil, count: 64)
        var count = 0

        func find(_ key: String, hash: UInt64) -> Template? {
            let mask = entries.count - 1
            var i = Int(truncatingIfNeeded: hash) & mask
            while let e = entries[i] {
                if e.hash == hash, e.key == key { return e.template }
                i = (i + 1) & mask
            }
            return nil
        }

        mutating func insert(_ entry: Entry) {
            if find(entry.key, hash: entry.hash) != nil { return }
            if (count + 1) * 2 > entries.count {
                let old = entries
                entries = Array(repeating: nil, count: old.count * 2)
                count = 0
                for case let e? in old { place(e) }
            }
            place(entry)
        }

        private mutating func place(_ entry: Entry) {
            let mask = entries.count - 1
            var i = Int(truncatingIfNeeded: entry.hash) & mask
            while entries[i] != nil { i = (i + 1) & mask }
            entries[i] = entry
            count += 1
        }
    }

    private let parsed = Mutex<Slots>(Slots())

    static func hash(_ key: String) -> UInt64 {
        var key = key
        return key.withUTF8 { bytes in
            var h: UInt64 = 0xcbf2_9ce4_8422_2325
            for b in bytes { h = (h ^ UInt64(b)) &* 0x0000_0100_0000_01b3 }
            return h
        }
    }

    func template(forKey key: String, in localizer: Localizer) -> Template? {
        let hash = Self.hash(key)
        if let known = parsed.withLock({ $0.find(key, hash: hash) }) { return known }
        guard let text = localizer.string(key) else { return nil }
        let template = Template(text)
        parsed.withLock { $0.insert(Entry(hash: hash, key: key, template: template)) }
        return template
    }
}
