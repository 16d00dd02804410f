import CGLib
import Glibc
import FoundationEssentials

/// Moves the settings of earlier versions — a GLib key file, `settings.ini` in the app's
/// config folder — into GSettings, once (`settings-ini-migrated` records it, so newer
/// settings are never overwritten): the file is then renamed `settings.ini.migrated`
/// (readable by its owner only), so it is not lost.
public enum KeyFileMigration {
    public static var defaultFile: URL { AppIdentity.configDirectory.appending(path: "settings.ini") }

    /// The old file could not be set aside (it stays where it was, and is not read again).
    public struct NotSetAside: Error, CustomStringConvertible {
        public let description: String
    }

    /// Migrates `file` into `settings` if it exists; returns whether it did.
    @discardableResult
    public static func run(from file: URL = defaultFile, into settings: SettingsStore) throws -> Bool {
        guard !settings.root.bool("settings-ini-migrated") else { return false }
        let keyFile = g_key_file_new()
        defer { g_key_file_free(keyFile) }
        guard g_key_file_load_from_file(keyFile, file.path, G_KEY_FILE_NONE, nil) != 0 else { return false }
        func value(_ group: String, _ key: String) -> String? {
            guard let value = g_key_file_get_string(keyFile, group, key, nil) else { return nil }
            defer { g_free(value) }
            return String(cString: value)
        }

        for group in groups(of: keyFile) where group.hasPrefix("profile ") {
            guard let url = value(group, "url") else { continue }
            settings.saveProfile(ServerProfile(
                id: String(group.dropFirst("profile ".count)), name: value(group, "name") ?? url, url: url,
                protocol: value(group, "protocol").flatMap(ChatProtocol.init(rawValue:)) ?? .openai,
                apiPath: value(group, "api-path"), model: value(group, "model") ?? LaunchOptions.defaultRemoteModel,
                caFile: value(group, "ca-file"), toolsEnabled: value(group, "tools") != "false"))
        }
        if let profile = value("general", "profile") { settings.activeProfileID = profile }
        if let model = value("local", "model"), let local = LocalModel.named(model) {
            settings.localModel = local
        }
        if let temperature = value("generation", "temperature").flatMap(Double.init) { settings.temperature = temperature }
        if let tokens = value("generation", "max-tokens").flatMap(Int.init) { settings.maxTokens = tokens }
        if let budget = value("generation", "context-tokens").flatMap(Int.init) { settings.contextBudget = budget }
        if let prompt = value("generation", "system-prompt") { settings.systemPrompt = prompt }
        if let seconds = value("network", "idle-timeout").flatMap(Int.init) { settings.root.set("idle-timeout", max(0, seconds)) }
        if value("location", "consent") == "always" { settings.locationAlwaysAllowed = true }
        if let manual = value("location", "manual").flatMap(Coordinates.init(parsing:)) { settings.manualLocation = manual }
        if let disabled = value("tools", "disabled") {
            settings.disabledTools = Set(disabled.split(separator: ",").map { $0.trimmedSpaces }.filter { !$0.isEmpty })
        }
        if let width = value("window", "width").flatMap(Int.init), let height = value("window", "height").flatMap(Int.init) {
            settings.root.set("window-width", width)
            settings.root.set("window-height", height)
        }
        if value("window", "maximized") == "true" { settings.root.set("window-maximized", true) }
        if let chat = value("window", "last-chat").flatMap(UUID.init(uuidString:)) { settings.lastChat = chat }
        if let installation = value("identity", "installation"), !installation.isEmpty {
            settings.root.set("installation-id", installation)
        }
        settings.root.set("settings-ini-migrated", true)

        SettingsStore.sync()
        let migrated = file.deletingLastPathComponent().appending(path: file.lastPathComponent + ".migrated")
        guard rename(file.path, migrated.path) == 0 else {
            // TRANSLATORS: %1$s is a file's path, %2$s the system's reason.
            throw NotSetAside(description: tr("The settings of an earlier version (%1$s) were moved into GSettings, but the file could not be renamed (%2$s); it is not read again, and can be removed.",
                                              file.path, String(cString: strerror(errno))))
        }
        chmod(migrated.path, 0o600)
        return true
    }

    private static func groups(of keyFile: OpaquePointer?) -> [String] {
        var count: gsize = 0
        guard let names = g_key_file_get_groups(keyFile, &count) else { return [] }
        defer { g_strfreev(names) }
        return (0..<Int(count)).compactMap { names[$0].map { String(cString: $0) } }
    }
}
