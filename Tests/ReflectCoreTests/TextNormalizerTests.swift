import Testing
@testable import ReflectCore

@Suite("TextNormalizer")
struct TextNormalizerTests {
    @Test("ASCII text is only lowercased: punctuation, digits and spacing are kept byte for byte")
    func asciiLowercasedOnly() {
        #expect(TextNormalizer.string("I ALWAYS Fail, 24/7!") == "i always fail, 24/7!")
        #expect(TextNormalizer.string("a_b\tc\nd`e") == "a_b\tc\nd`e")
        #expect(TextNormalizer.bytes("AZaz09_") == Array("azaz09_".utf8))
        #expect(TextNormalizer.string("") == "")
    }

    @Test("accents are removed and case is folded")
    func accentsAndCase() {
        #expect(TextNormalizer.string("Debería") == "deberia")
        #expect(TextNormalizer.string("NAÏVE CAFÉ") == "naive cafe")
        #expect(TextNormalizer.string("Ωμέγα") == "ωμεγα")
    }

    @Test("ß folds to ss")
    func sharpS() {
        #expect(TextNormalizer.string("Straße") == "strasse")
        #expect(TextNormalizer.string("STRAẞE") == "strasse")
    }

    @Test("full-width letters and ligatures become ASCII (NFKC)")
    func compatibilityForms() {
        #expect(TextNormalizer.string("ＡＬＷＡＹＳ") == "always")
        #expect(TextNormalizer.string("ﬁne") == "fine")
        #expect(TextNormalizer.string("１２３") == "123")
    }

    @Test("the ligatures œ and æ become oe and ae")
    func ligatures() {
        #expect(TextNormalizer.string("Cœur") == "coeur")
        #expect(TextNormalizer.string("ŒUVRE") == "oeuvre")
        #expect(TextNormalizer.string("Æsir") == "aesir")
    }

    @Test("half-width katakana with a voiced mark equals the full-width letter")
    func halfWidthKatakana() {
        #expect(TextNormalizer.string("ﾃﾞﾓ") == "デモ")
        #expect(TextNormalizer.string("ﾊﾟﾝ") == TextNormalizer.string("パン"))
    }

    @Test("apostrophe variants ’ ‘ ʼ ′ ＇ become '")
    func apostrophes() {
        for variant in ["\u{2019}", "\u{2018}", "\u{02BC}", "\u{2032}", "\u{FF07}"] {
            #expect(TextNormalizer.string("I\(variant)m é") == "i'm e", "variant U+\(String(variant.unicodeScalars.first!.value, radix: 16))")
        }
    }

    @Test("the acute accent ´ becomes an apostrophe, as documented")
    func acuteAccentApostrophe() {
        #expect(TextNormalizer.string("I´m") == "i'm")
    }

    @Test("a backtick is treated the same whether or not the rest of the text is ASCII")
    func backtickConsistency() {
        // The ASCII path keeps the C anchors' byte rule, so ` stays `; the
        // Unicode path must not disagree with it.
        #expect(TextNormalizer.string("I`m é") == "i`m e")
        #expect(TextNormalizer.string("I`m e") == "i`m e")
    }

    @Test("non-ASCII punctuation and spaces become a space; letters, digits and marks stay")
    func punctuationBecomesSpace() {
        #expect(TextNormalizer.string("«always»") == " always ")
        #expect(TextNormalizer.string("いつも、失敗。") == "いつも 失敗 ")
        #expect(TextNormalizer.string("a\u{00A0}b") == "a b")
        #expect(TextNormalizer.string("नमस्ते") == "नमस्ते") // Devanagari marks kept
        #expect(TextNormalizer.string("나는항상") == "나는항상")
    }

    @Test("Japanese voiced marks are kept, so だめ and ため stay different")
    func dakutenKept() {
        #expect(TextNormalizer.string("だめ") != TextNormalizer.string("ため"))
        #expect(TextNormalizer.string("パン") != TextNormalizer.string("ハン"))
    }

    @Test("after normalisation every byte ≥ 0x80 belongs to a letter, digit or mark")
    func highBytesAreWordBytes() {
        let text = "¿Qué? ¡Sí! — “citas” … 「引用」 ♥ 항상 ١٢٣"
        let s = TextNormalizer.string(text)
        for scalar in s.unicodeScalars where scalar.value >= 0x80 {
            let p = scalar.properties
            #expect(p.isAlphabetic || p.numericType != nil || p.generalCategory == .nonspacingMark
                    || p.generalCategory == .spacingMark, "U+\(String(scalar.value, radix: 16)) survived normalisation")
        }
        #expect(TextNormalizer.isWordByte(0xC3))
        #expect(TextNormalizer.isWordByte(UInt8(ascii: "_")))
        #expect(TextNormalizer.isWordByte(UInt8(ascii: "7")))
        #expect(!TextNormalizer.isWordByte(UInt8(ascii: "'")))
        #expect(!TextNormalizer.isWordByte(UInt8(ascii: "A"))) // only lowercase after normalisation
        #expect(!TextNormalizer.isWordByte(UInt8(ascii: " ")))
    }

    @Test("bytes and string agree")
    func bytesMatchString() {
        for text in ["Hello", "Debería", "ＡＬＷＡＹＳ", "私はいつも"] {
            #expect(TextNormalizer.bytes(text) == Array(TextNormalizer.string(text).utf8))
        }
    }
}
