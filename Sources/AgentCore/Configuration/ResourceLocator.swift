import FoundationEssentials

/// Finds the files the app loads at run time (`Resources/`): `$AGENT_RESOURCE_DIR`, the
/// installed location next to the binary (`<prefix>/share/<app id>`), or the source tree
/// for a build run from it — never for an installed one, whose missing file must show as
/// missing rather than be read from the tree it was built in.
public enum ResourceLocator {
    public static func file(named name: String) -> URL? {
        candidates().map { $0.appending(path: name) }.first { FileManager.default.fileExists(atPath: $0.path) }
    }

    /// The app's icons for an uninstalled build: the theme folder `make icons` builds in
    /// `.build/icons` (SVGs, PNG sizes, a cache), else the SVGs in `data/icons`; nil when
    /// installed, where the icon theme has them.
    public static var sourceTreeIcons: URL? {
        guard Executable.buildTree != nil else { return nil }
        return [".build/icons", "data/icons"].map { sourceTree.appending(path: $0, directoryHint: .isDirectory) }
            .first { FileManager.default.fileExists(atPath: $0.path) }
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
