import Glibc
import FoundationEssentials

/// The app's own files — chats, the local model's log — are the user's alone: folders
/// 0700, files 0600, whatever the umask. The app's own folders are tightened if an earlier
/// version left them readable by others; a folder the user chose (`--file ~/notes/x.sqlite`,
/// a file in /tmp) is theirs, and left as it is.
public enum PrivateFiles {
    /// Creates `directory` and its missing parents 0700; an existing directory is made 0700
    /// only when it is one of the app's own.
    public static func makeDirectory(_ directory: URL) throws {
        let existed = FileManager.default.fileExists(atPath: directory.path)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        if !existed || isAppOwn(directory) { chmod(directory.path, 0o700) }
    }

    /// Whether `directory` is, or lies in, one of the app's per-user folders.
    static func isAppOwn(_ directory: URL) -> Bool {
        let path = directory.standardizedFileURL.path
        return [AppIdentity.dataDirectory, AppIdentity.configDirectory, AppIdentity.cacheDirectory, AppIdentity.stateDirectory].contains { own in
            let root = own.standardizedFileURL.path
            return path == root || path.hasPrefix(root.hasSuffix("/") ? root : root + "/")
        }
    }

    /// Creates `file` empty if it does not exist; makes it 0600 either way. An existing file
    /// is not opened: closing a descriptor on it would drop the record locks this process
    /// holds on it (SQLite's, when a database here has it open).
    public static func prepareFile(_ file: URL) throws {
        try makeDirectory(file.deletingLastPathComponent())
        // One the user cannot change (another's file) is left as it is.
        if chmod(file.path, 0o600) == 0 || errno != ENOENT { return }
        // None yet (or a link to none): made, following a link as SQLite will.
        let descriptor = open(file.path, O_WRONLY | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        fchmod(descriptor, 0o600)
        close(descriptor)
    }
}
