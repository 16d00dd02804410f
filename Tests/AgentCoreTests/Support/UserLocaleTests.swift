@testable import AgentCore
import CIntl
import Testing

@Suite("Numbers and sizes in the user's locale (glibc's and GLib's formatting)")
struct UserLocaleTests {
    /// Runs `body` with `name` (a locale `scripts/install-deps --test` generates) as this
    /// thread's locale only, so tests running beside it keep the C locale.
    private func inLocale<T>(_ name: String, _ body: () -> T) throws -> T {
        let locale = try #require(agent_newlocale(name), "the locale \(name) is installed")
        defer { freelocale(locale) }
        let previous = uselocale(locale)
        defer { uselocale(previous) }
        return body()
    }

    @Test("The C locale the tests run in: no grouping, a decimal point; sizes as GNOME writes them")
    func cLocale() {
        #expect(UserLocale.number(1_234_567) == "1234567")
        #expect(UserLocale.number(42.125, fractionDigits: 1) == "42.1")
        #expect(UserLocale.number(0.30, upToFractionDigits: 2) == "0.3")
        #expect(UserLocale.number(1.0, upToFractionDigits: 2) == "1")
        #expect(UserLocale.percent(0.459) == "45%")
        #expect(ByteCountText.describe(2_500_000_000) == "2.5\u{A0}GB" && ByteCountText.english(2_500_000_000) == "2.5 GB")
        #expect(ByteCountText.describe(820) == "820 bytes" && ByteCountText.english(20 * 1024) == "20 KB")
    }

    @Test("German and French group thousands and write a decimal comma")
    func germanAndFrench() throws {
        #expect(try inLocale("de_DE.UTF-8") { UserLocale.number(1_234_567) } == "1.234.567")
        #expect(try inLocale("de_DE.UTF-8") { UserLocale.number(42.125, fractionDigits: 1) } == "42,1")
        #expect(try inLocale("de_DE.UTF-8") { UserLocale.number(0.75, upToFractionDigits: 2) } == "0,75")
        #expect(try inLocale("fr_FR.UTF-8") { UserLocale.number(1_234_567) } == "1\u{202F}234\u{202F}567")
        #expect(try inLocale("de_DE.UTF-8") { ByteCountText.describe(2_500_000_000) } == "2,5\u{A0}GB")
    }
}
