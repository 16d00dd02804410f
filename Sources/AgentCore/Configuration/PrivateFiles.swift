import Glibc
import FoundationEssentials

/// The app's own files — chats, the local model's log — are the user's alone: folders
/// 0700, files 0600, whatever the umask, and tightened if an earlier version left them
/// readable by others.
public enum PrivateFiles {
    /// Creates `directory` and its missing parents; the directory itself ends up 0700.
    public static func makeDirectory(_ directory: URL) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        chmod(directory.path, 0o700)
    }

    /// Creates `file` empty if it does not exist; makes it 0600 either way.
    public static func prepareFile(_ file: URL) throws {
        try makeDirectory(file.deletingLastPathComponent())
        let descriptor = open(file.path, O_WRONLY | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        fchmod(descriptor, 0o600)
        close(descriptor)
    }
}
