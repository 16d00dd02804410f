import Foundation

/// The locales the user chose for numbers and for dates, from the POSIX environment.
///
/// swift-foundation's `Locale.current` on Linux is always `en_001`, whatever `LANG` says
/// (swiftlang/swift-foundation#717), so formatting with it alone would always be English.
/// These read `LC_ALL`, then the category's own variable, then `LANG`, as glibc does; `C` and
/// `POSIX` (the tests' locale) mean `Locale.current`.
public enum UserLocale {
    /// For numbers and sizes (`LC_NUMERIC`).
    public static let numbers = locale(category: "LC_NUMERIC")
    /// For dates and times (`LC_TIME`).
    public static let dates = locale(category: "LC_TIME")

    /// A whole number as the user reads them: "1,234", "1.234", "1 234".
    public static func number(_ value: Int) -> String {
        value.formatted(.number.locale(numbers))
    }

    /// A number with exactly `fractionDigits` digits after the locale's decimal separator: "42.1", "42,1".
    public static func number(_ value: Double, fractionDigits: Int) -> String {
        value.formatted(.number.precision(.fractionLength(fractionDigits)).locale(numbers))
    }

    static func locale(category: String, environment: [String: String] = ProcessInfo.processInfo.environment) -> Locale {
        let chosen = ["LC_ALL", category, "LANG"].lazy.compactMap { environment[$0] }.first { !$0.isEmpty }
        return chosen.flatMap(identifier(posix:)).map(Locale.init(identifier:)) ?? .current
    }

    /// "de_DE.UTF-8@euro" → "de_DE"; nil for "C", "C.UTF-8" and "POSIX".
    static func identifier(posix name: String) -> String? {
        let base = name.prefix { $0 != "." && $0 != "@" }
        guard !base.isEmpty, base != "C", base != "POSIX" else { return nil }
        return String(base)
    }
}
