@testable import AgentCore
import Foundation
import Testing

@Suite("Numbers, sizes and dates in the user's locale, from the POSIX environment")
struct UserLocaleTests {
    @Test("A POSIX locale name becomes a locale identifier; C and POSIX mean none", arguments: [
        ("de_DE.UTF-8", "de_DE"), ("fr_FR@euro", "fr_FR"), ("pt_BR.utf8@variant", "pt_BR"), ("ja_JP", "ja_JP"),
        ("C", nil), ("C.UTF-8", nil), ("POSIX", nil), ("", nil),
    ] as [(String, String?)])
    func identifiers(posix: String, identifier: String?) {
        #expect(UserLocale.identifier(posix: posix) == identifier)
    }

    @Test("LC_ALL wins over the category's own variable, which wins over LANG")
    func precedence() {
        #expect(UserLocale.locale(category: "LC_NUMERIC", environment: ["LANG": "de_DE.UTF-8"]).identifier == "de_DE")
        #expect(UserLocale.locale(category: "LC_NUMERIC", environment: ["LANG": "de_DE.UTF-8", "LC_NUMERIC": "fr_FR.UTF-8"])
            .identifier == "fr_FR")
        #expect(UserLocale.locale(category: "LC_TIME", environment: ["LC_ALL": "es_ES.UTF-8", "LC_TIME": "fr_FR.UTF-8",
                                                                     "LANG": "de_DE.UTF-8"]).identifier == "es_ES")
        #expect(UserLocale.locale(category: "LC_TIME", environment: ["LC_ALL": "", "LANG": "C.UTF-8"]) == Locale.current)
    }

    @Test("A German locale writes a decimal comma, where the tests' C locale writes a point")
    func formats() {
        let german = Locale(identifier: "de_DE")
        #expect(2_500_000_000.formatted(.byteCount(style: .file).locale(german)) == "2,5\u{A0}GB")
        #expect(42.1.formatted(.number.precision(.fractionLength(1)).locale(german)) == "42,1")
        #expect(UserLocale.number(42.125, fractionDigits: 1) == "42.1")
        #expect(ByteCountText.describe(2_500_000_000) == "2.5 GB" && ByteCountText.english(2_500_000_000) == "2.5 GB")
        #expect(ByteCountText.describe(820) == "820 bytes" && ByteCountText.english(20 * 1024) == "20 KB")
    }
}
