import Foundation

/// The unlocked GNOME Keyring that Tests/Servers/test-session starts on the tests' private
/// D-Bus session, and the directories a "no key on disk" scan reads.
public enum TestKeyring {
    public struct NotRunning: Error, CustomStringConvertible {
        public var description: String {
            "No test keyring: run the tests as scripts/test does (dbus-run-session -- Tests/Servers/test-session swift test)"
        }
    }

    /// The keyring daemon's own files (encrypted), or an error when the tests run without one.
    public static func directory() throws -> URL {
        guard let path = ProcessInfo.processInfo.environment["AGENT_TEST_KEYRING"], !path.isEmpty else { throw NotRunning() }
        return URL(filePath: path, directoryHint: .isDirectory)
    }

    /// A key no test uses twice, easy to search for on disk.
    public static func uniqueKey() -> String {
        "sk-agent-test-\(UUID().uuidString.lowercased())"
    }

    /// Every regular file under `directories` whose bytes contain `needle`.
    public static func files(containing needle: String, under directories: [URL]) -> [String] {
        let bytes = Data(needle.utf8)
        var found: [String] = []
        for directory in directories {
            guard let walker = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: [.isRegularFileKey]) else {
                continue
            }
            for case let file as URL in walker {
                guard (try? file.resourceValues(forKeys: [.isRegularFileKey]))?.isRegularFile == true,
                      let contents = try? Data(contentsOf: file) else { continue }
                if contents.range(of: bytes) != nil { found.append(file.path) }
            }
        }
        return found
    }

    /// The XDG data, config and cache directories of this test run (temporary ones).
    public static func userDirectories() -> [URL] {
        let environment = ProcessInfo.processInfo.environment
        return ["XDG_DATA_HOME", "XDG_CONFIG_HOME", "XDG_CACHE_HOME"].compactMap { environment[$0] }
            .map { URL(filePath: $0, directoryHint: .isDirectory) }
    }
}
