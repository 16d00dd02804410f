
/// Fills the C-format placeholders of a translated message, which `msgfmt --check` keeps
/// consistent between a message and its translations: `%s` takes the next argument, `%2$s` the
/// second, `%d` the count (in the locale's number format), `%%` is a percent sign. As in C, a
/// plural message that writes its count (`countIsArgument`: the English has a `%d`) has it as
/// its first argument: there `%2$s` is the first of `arguments`.
enum Placeholders {
    static func fill(_ format: String, with arguments: [String], count: Int? = nil, countIsArgument: Bool = true) -> String {
        guard format.contains("%") else { return format }
        var result = ""
        var next = 0
        var rest = Substring(format)
        while let percent = rest.firstIndex(of: "%") {
            result += rest[..<percent]
            rest = rest[rest.index(after: percent)...]
            var position: Int?
            let digits = rest.prefix { $0.isASCII && $0.isNumber }
            if !digits.isEmpty, rest.dropFirst(digits.count).first == "$" {
                position = Int(digits)
                rest = rest.dropFirst(digits.count + 1)
            }
            switch rest.first {
            case "s":
                let index = position.map { $0 - (count != nil && countIsArgument ? 2 : 1) } ?? next
                next += 1
                result += arguments.indices.contains(index) ? arguments[index] : ""
                rest = rest.dropFirst()
            case "d":
                result += count.map(UserLocale.number) ?? ""
                rest = rest.dropFirst()
            case "%":
                result += "%"
                rest = rest.dropFirst()
            default:
                result += "%"
            }
        }
        return result + rest
    }

    /// Whether `format` has a `%d` or `%N$d`.
    static func writesCount(_ format: String) -> Bool {
        format.contains(/%(\d+\$)?d/)
    }
}
