import CIntl
import FoundationEssentials

/// Agent's gettext domain and the catalogs it is bound to: `po/*.po` compiled into
/// `share/locale/<lang>/LC_MESSAGES/<domain>.mo` (`make install`) or `.build/locale` (`make locale`).
public enum Localization {
    public static let domain = "io.github.agentdesktop.Agent"

    /// Takes the locale from the environment and binds the domain to the first folder with catalogs:
    /// `$AGENT_LOCALE_DIR`, the build tree's `.build/locale` for a build run from there, then
    /// `<prefix>/share/locale` beside the executable.
    public static func setUp() {
        setlocale(LC_ALL, "")
        if let directory = catalogDirectory() {
            bindtextdomain(domain, directory.path)
        }
        bind_textdomain_codeset(domain, "UTF-8")
        textdomain(domain)
    }

    static func catalogDirectory() -> URL? {
        if let directory = ProcessInfo.processInfo.environment["AGENT_LOCALE_DIR"], !directory.isEmpty {
            return URL(filePath: directory)
        }
        if let buildTree = Executable.buildTree {
            return buildTree.appending(path: "locale")
        }
        let installed = Executable.sharedData.appending(path: "locale")
        return FileManager.default.fileExists(atPath: installed.path) ? installed : nil
    }
}

/// `message` translated into the user's language (gettext), or itself.
/// `%s` and `%1$s`-style placeholders take `arguments` in order or by number: a translation may reorder them.
public func tr(_ message: String, _ arguments: String...) -> String {
    let translated = message.withCString { String(cString: dgettext(Localization.domain, $0)) }
    return Placeholders.fill(translated, with: arguments)
}

/// The form of `singular`/`plural` the user's language uses for `count` (ngettext), with `%d`
/// (or `%1$d`) replaced by `count` in the locale's digits and grouping and `%s`-style placeholders by `arguments`.
public func trn(_ singular: String, _ plural: String, _ count: Int, _ arguments: String...) -> String {
    let translated = singular.withCString { one in
        plural.withCString { many in
            String(cString: dngettext(Localization.domain, one, many, UInt(clamping: count.magnitude)))
        }
    }
    return Placeholders.fill(translated, with: arguments, count: count,
                             countIsArgument: Placeholders.writesCount(singular) || Placeholders.writesCount(plural))
}
