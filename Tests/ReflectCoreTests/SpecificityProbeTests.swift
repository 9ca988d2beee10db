import Foundation
import Testing
@testable import ReflectCore

@Suite("SpecificityProbe")
struct SpecificityProbeTests {
    static let english = ["idk", "everything", "same as always", "all"]

    @Test("an ASCII answer's core (what is compared with the vague phrases) is the normaliser's, trimmed to letters and digits")
    func asciiCoreMatchesNormaliser() {
        let alphabet = Array("aAzZ09 .!?'\"-_\t\n~@IdkNOthing")
        var x: UInt64 = 0x9E37_79B9_7F4A_7C15
        for n in 0..<2000 {
            var text = ""
            for _ in 0..<(n % 24) {
                x ^= x << 13; x ^= x >> 7; x ^= x << 17
                text.append(alphabet[Int(x % UInt64(alphabet.count))])
            }
            let expected = TextNormalizer.string(text).trimmingCharacters(in: CharacterSet.alphanumerics.inverted)
            #expect(SpecificityProbe.core(of: text) == expected, "\(text.debugDescription)")
        }
    }

    @Test("answers under 25 characters are vague", arguments: ["idk", "Work was bad", "", "My boss yelled at me too"])
    func shortIsVague(answer: String) throws {
        #expect(answer.count < 25)
        let probe = try SpecificityProbe(vaguePhrases: Self.english)
        #expect(probe.isVague(answer))
    }

    @Test("the 25-character minimum is exact and counts trimmed characters")
    func boundary() throws {
        let probe = try SpecificityProbe(vaguePhrases: [])
        let twentyFour = "My boss criticized my sl"
        let twentyFive = "My boss criticized my sli"
        #expect(twentyFour.count == 24 && twentyFive.count == 25)
        #expect(probe.isVague(twentyFour))
        #expect(!probe.isVague(twentyFive))
        #expect(probe.isVague("          " + twentyFour + "   \n"))
    }

    @Test("a vague phrase in a short answer (under twice the minimum) is vague")
    func vaguePhraseInShortAnswer() throws {
        let probe = try SpecificityProbe(vaguePhrases: Self.english)
        let answer = "idk, everything went wrong again"
        #expect(answer.count >= 25 && answer.count < 50)
        #expect(probe.isVague(answer))
        #expect(probe.isVague("Honestly it was the same as always today"))
        #expect(probe.isVague("EVERYTHING at work went sideways"))
    }

    @Test("a short answer without a vague phrase is not vague")
    func shortSpecific() throws {
        let probe = try SpecificityProbe(vaguePhrases: Self.english)
        #expect(!probe.isVague("My boss criticised my slides"))
        // "all" occurs only inside other words here.
        let answer = "I called the office at noon today"
        #expect(answer.count < 50)
        #expect(!probe.isVague(answer))
    }

    @Test("a long specific sentence is not vague, even with a vague phrase in it")
    func longNotVague() throws {
        let probe = try SpecificityProbe(vaguePhrases: Self.english)
        let answer = "Everything went wrong when my manager criticised my slides in the Monday meeting"
        #expect(answer.count >= 50)
        #expect(!probe.isVague(answer))
        #expect(!probe.isVague("At the Monday meeting my manager questioned my numbers in front of the whole team"))
    }

    @Test("a denser script sets a lower minimum and matches substrings")
    func japanese() throws {
        let probe = try SpecificityProbe(minimumCharacters: 8, vaguePhrases: ["いろいろ"], mode: .substring)
        #expect(probe.minimumCharacters == 8)
        #expect(probe.isVague("いつも失敗する"))                 // 7 characters
        #expect(!probe.isVague("会議で上司に資料を批判された"))       // 14, specific
        #expect(probe.isVague("いろいろあって疲れた日だった"))       // 14, vague phrase
        #expect(!probe.isVague("いろいろあって、月曜の会議で上司に資料を批判された")) // 25 ≥ 16
    }

    @Test("an empty vague phrase is a LexiconError")
    func emptyPhrase() {
        #expect(throws: LexiconError.self) { try SpecificityProbe(vaguePhrases: ["idk", ""]) }
    }
}
