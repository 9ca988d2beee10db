import ReflectCore
import Synchronization

/// The parsed templates of a language's locale keys, each parsed once per
/// ``Language`` (whose localizer, with its personality and experiment arms,
/// never changes): a prompt's key is looked up and parsed at its first use
/// in the process, not at every step of every session.
///
/// Contract: ``template(forKey:in:)`` returns exactly
/// `Template(localizer.string(key))`, or nil when the chain has no such
/// key. Bounded by the keys the chain has: a key found nowhere is not kept.
final class TemplateCache: Sendable {
    private let parsed = Mutex<[String: Template]>([:])

    func template(forKey key: String, in localizer: Localizer) -> Template? {
        if let known = parsed.withLock({ $0[key] }) { return known }
        guard let text = localizer.string(key) else { return nil }
        let template = Template(text)
        parsed.withLock { $0[key] = template }
        return template
    }
}
