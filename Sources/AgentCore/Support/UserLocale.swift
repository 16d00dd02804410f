import CIntl

/// Numbers as the user reads them, in the `LC_NUMERIC` locale the process runs in
/// (`Localization.setUp()` takes it from the environment): glibc's digit grouping and decimal
/// separator. Foundation's formatters would bring ICU's data (50 MB) into the app, and its
/// `Locale.current` is always `en_001` on Linux (swiftlang/swift-foundation#717). In the C
/// locale, which the tests run in, numbers are ungrouped with a decimal point.
public enum UserLocale {
    /// A whole number: "1,234", "1.234", "1 234".
    public static func number(_ value: Int) -> String {
        formatted { agent_format_integer(Int64(value), $0, $1) }
    }

    /// A number with exactly `fractionDigits` digits after the locale's decimal separator: "42.1", "42,1".
    public static func number(_ value: Double, fractionDigits: Int) -> String {
        formatted { agent_format_decimal(value, Int32(fractionDigits), $0, $1) }
    }

    /// A number with at most `fractionDigits` digits after the separator, as typed: "0.3", "1", "0,75".
    public static func number(_ value: Double, upToFractionDigits fractionDigits: Int) -> String {
        var text = number(value, fractionDigits: fractionDigits)
        guard fractionDigits > 0 else { return text }
        while text.last == "0" { text.removeLast() }
        if let last = text.last, !last.isNumber { text.removeLast() }
        return text
    }

    /// A fraction of 1 as a whole percentage, rounded down: "45%", "45 %".
    public static func percent(_ fraction: Double) -> String {
        // TRANSLATORS: a percentage; %s is the number. French and German put a space before %%.
        tr("%s%%", number(Int((fraction * 100).rounded(.down))))
    }

    private static func formatted(_ write: (UnsafeMutablePointer<CChar>, Int) -> Void) -> String {
        var buffer = [CChar](repeating: 0, count: 64)
        buffer.withUnsafeMutableBufferPointer { bytes in
            if let start = bytes.baseAddress { write(start, bytes.count - 1) }
        }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
