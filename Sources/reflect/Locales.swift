import ArgumentParser
import Foundation
import ReflectCore
import ReflectEngine
import ReflectTranslation

struct Locales: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Translators' tools: status, check, confirm, and PO / XLIFF export and import.",
        subcommands: [Status.self, Check.self, Confirm.self, ExportLocale.self, ImportLocale.self, NewLocale.self])

    struct NewLocale: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "new", abstract: "Start a new language: write locales/TAG.yaml with no strings yet (docs/localization.md).")
        @Argument(help: "The locale tag (it, pt-PT, zh-Hant).") var tag: String
        @Option(help: "The language's name in itself (Italiano).") var name: String
        @Option(help: "word (spaces between words), or substring (ja, ko, zh).") var matching: String = "word"
        @OptionGroup var contentOptions: ContentOptions

        func run() throws {
            let library = try contentOptions.open()
            do {
                let file = try LocaleTools(library: library).newLocale(tag, name: name, matching: matching)
                print("wrote \(file). Next: reflect locales export --format po \(tag) --out \(tag).po, translate, "
                      + "reflect locales import \(tag).po; add a safety: section (docs/safety.md); reflect locales status \(tag)")
            } catch { throw fail(error) }
        }
    }

    struct Status: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Per locale: translated, missing, stale and broken strings, and the keys behind each.")
        @Argument(help: "A locale tag (default: every translation).") var tag: String?
        @Option(help: "text or json.") var format: Format = .text
        @Flag(help: "For each stale string, the English it was translated from and the English now.") var verbose = false
        @OptionGroup var contentOptions: ContentOptions
        enum Format: String, ExpressibleByArgument { case text, json }

        func run() throws {
            let reports: [LocaleStatus]
            let library = try contentOptions.open()
            do { reports = try LocaleTools(library: library).status(tag) } catch { throw fail(error) }
            if format == .json {
                let e = JSONEncoder()
                e.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
                Terminal.writeJSON(try e.encode(reports) + Data("\n".utf8))
                return
            }
            for r in reports {
                print("\(r.locale) (\(r.file)): \(r.translated.count) translated, \(r.missing.count) missing, "
                      + "\(r.stale.count) stale, \(r.unconfirmed.count) unconfirmed, \(r.broken.count) broken")
                for (label, keys) in [("missing", r.missing), ("stale", r.stale), ("unconfirmed", r.unconfirmed), ("unknown", r.unknown)]
                where !keys.isEmpty {
                    print("  \(label): " + keys.joined(separator: ", "))
                }
                if verbose {
                    let known = Dictionary(r.changes.map { ($0.key, $0) }, uniquingKeysWith: { a, _ in a })
                    for key in r.stale {
                        print("  stale \(key):")
                        if let c = known[key] {
                            print("    was: \(c.was)")
                            print("    now: \(c.now)")
                        } else {
                            print("    (the English it was translated from is not recorded in locales/history/en.yaml)")
                        }
                    }
                }
                for b in r.broken { print("  broken: \(b.key): \(b.reason)") }
                if !r.staleLists.isEmpty { print("  stale word lists: " + r.staleLists.joined(separator: ", ")) }
                if !r.missingLists.isEmpty { print("  missing word lists: " + r.missingLists.joined(separator: ", ")) }
            }
        }
    }

    struct Check: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Fail on malformed files, placeholder mismatches, unknown keys and empty lists; list warnings.")
        @Option(help: "text or json.") var format: Status.Format = .text
        @OptionGroup var contentOptions: ContentOptions

        func run() throws {
            let findings = LocaleTools(library: try contentOptions.open()).check()
            if format == .json {
                let e = JSONEncoder()
                e.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
                Terminal.writeJSON(try e.encode(findings) + Data("\n".utf8))
            } else {
                for f in findings { print(f.description) }
                let errors = findings.filter { $0.severity == .error }.count
                print("\(errors) error(s), \(findings.count - errors) warning(s)")
            }
            if findings.contains(where: { $0.severity == .error }) { throw ExitCode(1) }
        }
    }

    struct Confirm: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Mark translations as up to date with the current English (clears 'stale') and rewrite the file.")
        @Argument(help: "The locale.") var tag: String
        @Argument(help: "Keys to confirm.") var keys: [String] = []
        @Flag(help: "Every translated key and the word lists.") var all = false
        @Flag(help: "The word lists (probe, distortions).") var lists = false
        @OptionGroup var contentOptions: ContentOptions

        func validate() throws {
            if keys.isEmpty && !all && !lists { throw ValidationError("name keys, or pass --all or --lists") }
        }

        func run() throws {
            let library = try contentOptions.open()
            do {
                let done = try LocaleTools(library: library).confirm(tag, keys: keys, all: all, lists: lists)
                print("confirmed \(done.count) string(s) in locales/\(tag).yaml" + (all || lists ? " and its word lists" : ""))
            } catch { throw fail(error) }
        }
    }

    struct ExportLocale: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "export", abstract: "Write a locale's strings as gettext PO or XLIFF 1.2.")
        enum Format: String, ExpressibleByArgument { case po, xliff }
        @Option(help: "po or xliff.") var format: Format = .po
        @Argument(help: "The locale.") var tag: String
        @Option(help: "Write to FILE instead of stdout.") var out: String?
        @OptionGroup var contentOptions: ContentOptions

        func run() throws {
            let tools = LocaleTools(library: try contentOptions.open())
            let text: String
            do {
                switch format {
                case .po:
                    let f = DateFormatter()
                    f.locale = Locale(identifier: "en_US_POSIX")
                    f.dateFormat = "yyyy-MM-dd HH:mmZ"
                    text = try tools.exportPO(tag, revisionDate: f.string(from: Date()))
                case .xliff: text = try tools.exportXLIFF(tag)
                }
            } catch { throw fail(error) }
            if let out {
                do { try text.write(toFile: out, atomically: true, encoding: .utf8) } catch { throw ValidationError("cannot write \(out)") }
            } else {
                Terminal.writeData(Data(text.utf8))
            }
        }
    }

    struct ImportLocale: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "import", abstract: "Read a PO or XLIFF file back into its locale file.")
        @Argument(help: "A .po or .xlf/.xliff file.") var file: String
        @Option(help: "The locale, when the file does not say.") var locale: String?
        @OptionGroup var contentOptions: ContentOptions

        func run() throws {
            let library = try contentOptions.open()
            do {
                let s = try LocaleTools(library: library).importFile(URL(fileURLWithPath: file), tag: locale)
                print("locales/\(s.locale).yaml: \(s.updated.count) updated, \(s.unchanged) unchanged, \(s.untranslated) untranslated in the file")
            } catch { throw fail(error) }
        }
    }
}
