#if canImport(Glibc)
import Glibc
#endif
import FoundationEssentials

/// The language replies are read in: the user's first choice — the first of `$LANGUAGE`
/// unless the locale is C, else the messages locale, whether Agent has a catalog for it or
/// not (replies come in the language asked, not the window's) — as a tag the speech service
/// takes ("de-DE", "pt-BR"), English when there is none.
public enum SpeechLanguage {
    public static var current: String {
        code(messagesLocale: setlocale(LC_MESSAGES, nil).map { String(cString: $0) },
             languageList: ProcessInfo.processInfo.environment["LANGUAGE"])
    }

    /// The tag for a locale name such as "de_DE.UTF-8@euro", and gettext's `LANGUAGE` list.
    public static func code(messagesLocale: String?, languageList: String?) -> String {
        let locale = messagesLocale ?? ""
        let isPlain = locale.isEmpty || locale == "C" || locale == "POSIX" || locale.hasPrefix("C.")
        let chosen = isPlain ? nil : languageList?.split(separator: ":").first.map(String.init) ?? locale
        guard let chosen else { return "en" }
        let name = chosen.prefix { $0 != "." && $0 != "@" }
        let parts = name.split(separator: "_", maxSplits: 1)
        guard let language = parts.first, !language.isEmpty, language.allSatisfy(\.isLetter) else { return "en" }
        guard parts.count == 2, parts[1].allSatisfy({ $0.isLetter || $0.isNumber }) else { return language.lowercased() }
        return "\(language.lowercased())-\(parts[1].uppercased())"
    }
}
