import FoundationEssentials

/// Finds the files the app loads at run time (`Resources/`): `$AGENT_RESOURCE_DIR`, the
/// installed location next to the binary (`<prefix>/share/<app id>`), or the source tree
/// for an uninstalled build.
public enum ResourceLocator {
    public static func file(named name: String) -> URL? {
        candidates().map { $0.appending(path: name) }.first { FileManager.default.fileExists(atPath: $0.path) }
    }

    private static func candidates() -> [URL] {
        var folders: [URL] = []
        if let override = ProcessInfo.processInfo.environment["AGENT_RESOURCE_DIR"], !override.isEmpty {
            folders.append(URL(filePath: override, directoryHint: .isDirectory))
        }
        let executable = URL(filePath: CommandLine.arguments.first ?? "").resolvingSymlinksInPath()
        folders.append(executable.deletingLastPathComponent().deletingLastPathComponent()
            .appending(path: "share/\(AppIdentity.applicationID)", directoryHint: .isDirectory))
        // Sources/AgentCore/Configuration/ResourceLocator.swift → the package's Resources/
        let sourceTree = URL(filePath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        folders.append(sourceTree.appending(path: "Resources", directoryHint: .isDirectory))
        return folders
    }
}
