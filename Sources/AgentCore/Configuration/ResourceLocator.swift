import Glibc
import FoundationEssentials

/// Finds the files the app loads at run time (`Resources/`): `$AGENT_RESOURCE_DIR`, the
/// installed location next to the binary (`<prefix>/share/<app id>`), or the source tree
/// for a build run from it — never for an installed one, whose missing file must show as
/// missing rather than be read from the tree it was built in.
public enum ResourceLocator {
    public static func file(named name: String) -> URL? {
        candidates().map { $0.appending(path: name) }.first { FileManager.default.fileExists(atPath: $0.path) }
    }

    /// Puts an uninstalled build's icons on the desktop's data path (`XDG_DATA_DIRS`, for this
    /// process and the programs it starts). GTK then finds them in the icon theme it reads on a
    /// background thread at start; added as a search path once GTK runs, they would make it drop
    /// that theme and read it again on the main thread while the first frame waits. Nothing to do
    /// for an installed build, whose icons are in the desktop's theme. Call first in `main`,
    /// before GLib reads the variable (it keeps what it read) and before any other thread runs.
    public static func exposeSourceTreeIcons() {
        // A ":" in the path would split it in two.
        guard let folder = sourceTreeIconData, !folder.path.contains(":") else { return }
        setenv("XDG_DATA_DIRS", dataDirectories(ProcessInfo.processInfo.environment["XDG_DATA_DIRS"], prepending: folder), 1)
    }

    /// The data folder whose `icons/` holds an uninstalled build's icon theme: `.build/share`,
    /// where `make icons` builds it (SVGs, PNG sizes, a cache) with nothing else beside it,
    /// else `data` (the SVGs); nil when installed.
    static var sourceTreeIconData: URL? {
        guard Executable.buildTree != nil else { return nil }
        return [".build/share", "data"].map { sourceTree.appending(path: $0, directoryHint: .isDirectory) }
            .first { FileManager.default.fileExists(atPath: $0.appending(path: "icons").path) }
    }

    /// `XDG_DATA_DIRS` with `folder` first; unset or empty stands for the XDG Base Directory default.
    static func dataDirectories(_ current: String?, prepending folder: URL) -> String {
        let rest = current.flatMap { $0.isEmpty ? nil : $0 } ?? "/usr/local/share:/usr/share"
        return "\(folder.path):\(rest)"
    }

    // Sources/AgentCore/Configuration/ResourceLocator.swift → the package's folder.
    private static var sourceTree: URL {
        URL(filePath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
    }

    private static func candidates() -> [URL] {
        var folders: [URL] = []
        if let override = ProcessInfo.processInfo.environment["AGENT_RESOURCE_DIR"], !override.isEmpty {
            folders.append(URL(filePath: override, directoryHint: .isDirectory))
        }
        folders.append(Executable.sharedData.appending(path: AppIdentity.applicationID, directoryHint: .isDirectory))
        if Executable.buildTree != nil {
            folders.append(sourceTree.appending(path: "Resources", directoryHint: .isDirectory))
        }
        return folders
    }
}
