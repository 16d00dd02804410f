import FoundationEssentials
import Glibc

/// Reading and writing `mcp.json`. It may hold tokens (headers, `env`), so it is the user's
/// alone: written 0600 in a 0700 folder, and atomically, so a crash never leaves half a file.
extension MCPConfigDocument {
    /// `$XDG_CONFIG_HOME/io.github.agentdesktop.Agent/mcp.json`.
    public static var defaultLocation: URL {
        AppIdentity.configDirectory.appending(path: "mcp.json")
    }

    /// Reads the file (a missing file is an empty document).
    public static func load(from url: URL) throws(MCPConfigError) -> MCPConfigDocument {
        guard FileManager.default.fileExists(atPath: url.path) else { return MCPConfigDocument() }
        let bytes: Data
        do {
            bytes = try Data(contentsOf: url)
        } catch {
            // TRANSLATORS: %1$s is a file's path, %2$s the system's reason.
            throw MCPConfigError(tr("Could not read %1$s: %2$s.", url.path, String(describing: error)))
        }
        do throws(MCPConfigError) {
            return try MCPConfigDocument(parsing: String(decoding: bytes, as: UTF8.self))
        } catch {
            throw MCPConfigError("\(url.path): \(error.description)")
        }
    }

    /// Writes atomically (temp file + rename) with mode 0600, creating the folder (0700).
    public func save(to url: URL) throws(MCPConfigError) {
        let folder = url.deletingLastPathComponent()
        do {
            try PrivateFiles.makeDirectory(folder)
        } catch {
            // TRANSLATORS: %1$s is a folder's path, %2$s the system's reason.
            throw MCPConfigError(tr("Could not create the folder %1$s: %2$s.", folder.path, String(describing: error)))
        }
        let temporary = folder.appending(path: ".\(url.lastPathComponent).\(UUID().uuidString.lowercased()).tmp")
        let descriptor = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw MCPConfigError(tr("Could not save %1$s: %2$s.", url.path, Self.systemError())) }
        fchmod(descriptor, 0o600)  // whatever the umask
        var failure = FileDescriptorWriting.writeAll(Array(text.utf8), to: descriptor) == 0 && fsync(descriptor) == 0 ? nil : Self.systemError()
        close(descriptor)
        if failure == nil, rename(temporary.path, url.path) != 0 { failure = Self.systemError() }
        if let failure {
            unlink(temporary.path)
            // TRANSLATORS: %1$s is a file's path, %2$s the system's reason.
            throw MCPConfigError(tr("Could not save %1$s: %2$s.", url.path, String(describing: failure)))
        }
    }

    private static func systemError() -> String {
        String(cString: strerror(errno))
    }
}
