import Foundation

/// A home of a test's own for a program it runs: its own XDG config, data and state folders
/// (chats, settings, logs) under the temporary directory, and GSettings in a key file there.
public struct PrivateHome: Sendable {
    public let folder: URL

    /// A new home, its folder named `prefix` and a UUID (made when first written to).
    public init(_ prefix: String) {
        folder = FileManager.default.temporaryDirectory.appending(path: "\(prefix)-\(UUID().uuidString)")
    }

    public var config: URL { folder.appending(path: "config") }
    public var data: URL { folder.appending(path: "data") }
    public var state: URL { folder.appending(path: "state") }

    /// The environment that puts a program in this home.
    public var environment: [String: String] {
        ["XDG_CONFIG_HOME": config.path, "XDG_DATA_HOME": data.path, "XDG_STATE_HOME": state.path, "GSETTINGS_BACKEND": "keyfile"]
    }

    /// The environment that puts a program in this home through its home folder alone, as a
    /// user without XDG variables has it: Agent and GLib read `HOME`, and Foundation (for
    /// what a test reads through it) `CFFIXED_USER_HOME` before the password file.
    public var homeEnvironment: [String: String] {
        ["XDG_CONFIG_HOME": "", "XDG_DATA_HOME": "", "XDG_STATE_HOME": "", "XDG_CACHE_HOME": "",
         "CFFIXED_USER_HOME": folder.path, "HOME": folder.path, "GSETTINGS_BACKEND": "keyfile"]
    }

    /// Sets Agent's GSettings keys to `lines` (`key=value` in GVariant text), replacing what was set.
    public func setSettings(_ lines: String) throws {
        let keyFile = config.appending(path: "glib-2.0/settings/keyfile")
        try FileManager.default.createDirectory(at: keyFile.deletingLastPathComponent(), withIntermediateDirectories: true)
        try "[io/github/agentdesktop/Agent]\n\(lines)\n".write(to: keyFile, atomically: true, encoding: .utf8)
    }

    /// Removes the home and everything in it.
    public func remove() {
        try? FileManager.default.removeItem(at: folder)
    }
}
