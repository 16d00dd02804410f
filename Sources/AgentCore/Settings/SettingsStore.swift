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

    /// The groups whose names start with `prefix`.
    public func groups(withPrefix prefix: String) -> [String] {
        keyFile.withLock { keyFile in
            var count: gsize = 0
            guard let names = g_key_file_get_groups(keyFile.pointer, &count) else { return [] }
            defer { g_strfreev(names) }
            return (0..<Int(count)).compactMap { names[$0].map { String(cString: $0) } }.filter { $0.hasPrefix(prefix) }
        }
    }

    /// Removes a whole group and saves the file.
    public func removeGroup(_ group: String) {
        keyFile.withLock { keyFile in
            g_key_file_remove_group(keyFile.pointer, group, nil)
            save(keyFile)
        }
    }

    private func save(_ keyFile: KeyFile) {
        try? FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        g_key_file_save_to_file(keyFile.pointer, file.path, nil)
    }

    /// Sets (or with nil removes) a value and saves the file.
    public func set(_ value: String?, _ group: String, _ key: String) {
        keyFile.withLock { keyFile in
            if let value {
                g_key_file_set_string(keyFile.pointer, group, key, value)
            } else {
                g_key_file_remove_key(keyFile.pointer, group, key, nil)
            }
            save(keyFile)
        }
    }
}

extension SettingsStore {
    /// A random identifier for this installation, made on first use (the harness's appID).
    public var installationID: String {
        if let existing = string("identity", "installation"), !existing.isEmpty { return existing }
        let made = UUID().uuidString.lowercased()
        set(made, "identity", "installation")
        return made
    }
}
