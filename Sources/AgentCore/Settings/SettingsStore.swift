import CGLib
import FoundationEssentials
import Synchronization

/// The user's settings, in a GLib key file (`$XDG_CONFIG_HOME/<app id>/settings.ini`),
/// written atomically on every change. Never holds secrets.
public final class SettingsStore: Sendable {
    /// The key file handle; only touched under the lock.
    private struct KeyFile: @unchecked Sendable {
        let pointer: OpaquePointer
    }

    public let file: URL
    private let keyFile: Mutex<KeyFile>

    public static var defaultFile: URL { AppIdentity.configDirectory.appending(path: "settings.ini") }

    public init(file: URL = SettingsStore.defaultFile) {
        self.file = file
        let pointer: OpaquePointer = g_key_file_new()
        g_key_file_load_from_file(pointer, file.path, G_KEY_FILE_KEEP_COMMENTS, nil)
        keyFile = Mutex(KeyFile(pointer: pointer))
    }

    deinit {
        keyFile.withLock { g_key_file_free($0.pointer) }
    }

    public func string(_ group: String, _ key: String) -> String? {
        keyFile.withLock { keyFile in
            guard let value = g_key_file_get_string(keyFile.pointer, group, key, nil) else { return nil }
            defer { g_free(value) }
            return String(cString: value)
        }
    }

    /// Sets (or with nil removes) a value and saves the file.
    public func set(_ value: String?, _ group: String, _ key: String) {
        keyFile.withLock { keyFile in
            if let value {
                g_key_file_set_string(keyFile.pointer, group, key, value)
            } else {
                g_key_file_remove_key(keyFile.pointer, group, key, nil)
            }
            try? FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            g_key_file_save_to_file(keyFile.pointer, file.path, nil)
        }
    }
}

extension SettingsStore {
    /// Whether `get_location` may run without asking: "always" once the user chose Always Allow.
    public var locationAlwaysAllowed: Bool {
        get { string("location", "consent") == "always" }
        set { set(newValue ? "always" : nil, "location", "consent") }
    }

    /// A location to use when the device cannot tell (no GeoClue, or it refused).
    public var manualLocation: Coordinates? {
        get { string("location", "manual").flatMap(Coordinates.init(parsing:)) }
        set { set(newValue?.description, "location", "manual") }
    }

    /// Tools the user switched off.
    public var disabledTools: Set<String> {
        get { Set((string("tools", "disabled") ?? "").split(separator: ",").map { $0.trimmedSpaces }.filter { !$0.isEmpty }) }
        set { set(newValue.isEmpty ? nil : newValue.sorted().joined(separator: ","), "tools", "disabled") }
    }

    /// A random identifier for this installation, made on first use (the harness's appID).
    public var installationID: String {
        if let existing = string("identity", "installation"), !existing.isEmpty { return existing }
        let made = UUID().uuidString.lowercased()
        set(made, "identity", "installation")
        return made
    }
}

extension SettingsStore {
    /// How many tokens of conversation a request may carry (estimated), 4096 unless set.
    public var contextBudget: Int {
        get { string("generation", "context-tokens").flatMap(Int.init).map { max(256, $0) } ?? 4096 }
        set { set(String(newValue), "generation", "context-tokens") }
    }

    /// The system prompt new chats start with.
    public var systemPrompt: String {
        get { string("generation", "system-prompt") ?? "" }
        set { set(newValue.isEmpty ? nil : newValue, "generation", "system-prompt") }
    }
}
