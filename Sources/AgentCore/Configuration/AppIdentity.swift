import FoundationEssentials

/// The application's identity and its per-user folders (XDG base directories, as GLib's
/// `g_get_user_data_dir` and friends resolve them).
public enum AppIdentity {
    public static let applicationID = "io.github.agentdesktop.Agent"
    public static let name = "Agent"
    public static let version = "0.1.0"

    /// `$XDG_DATA_HOME/<app id>`, by default `~/.local/share/<app id>`.
    public static var dataDirectory: URL {
        baseDirectory(environment: "XDG_DATA_HOME", fallback: ".local/share").appending(path: applicationID)
    }

    /// `$XDG_CONFIG_HOME/<app id>`, by default `~/.config/<app id>`.
    public static var configDirectory: URL {
        baseDirectory(environment: "XDG_CONFIG_HOME", fallback: ".config").appending(path: applicationID)
    }

    /// `$XDG_CACHE_HOME/<app id>`, by default `~/.cache/<app id>`.
    public static var cacheDirectory: URL {
        baseDirectory(environment: "XDG_CACHE_HOME", fallback: ".cache").appending(path: applicationID)
    }

    /// `$XDG_STATE_HOME/<app id>`, by default `~/.local/state/<app id>`: logs worth keeping
    /// across runs (the MCP servers' stderr).
    public static var stateDirectory: URL {
        baseDirectory(environment: "XDG_STATE_HOME", fallback: ".local/state").appending(path: applicationID)
    }

    /// The user's home: `$HOME` when it is an absolute path (GLib's `g_get_home_dir` reads
    /// it too; Foundation here reads only the account's entry), else the account's.
    public static var homeDirectory: URL {
        if let home = ProcessInfo.processInfo.environment["HOME"], home.hasPrefix("/") {
            return URL(filePath: home, directoryHint: .isDirectory)
        }
        return FileManager.default.homeDirectoryForCurrentUser
    }

    /// `path` with the home folder as "~", for showing.
    public static func tildePath(_ path: String) -> String {
        let home = homeDirectory.path
        return path.hasPrefix(home + "/") ? "~" + path.dropFirst(home.count) : path
    }

    private static func baseDirectory(environment name: String, fallback: String) -> URL {
        if let value = ProcessInfo.processInfo.environment[name], value.hasPrefix("/") {
            return URL(filePath: value, directoryHint: .isDirectory)
        }
        return homeDirectory.appending(path: fallback, directoryHint: .isDirectory)
    }
}
