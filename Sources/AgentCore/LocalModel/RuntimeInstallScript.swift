import FoundationEssentials

/// Finds the script that installs the local model runtime: `agent-install-runtime` beside
/// the running binary (where `make install` puts it), else `scripts/install-runtime` in the
/// source tree a build under `.build/` runs from.
public enum RuntimeInstallScript {
    /// For tests only: a script to run instead (a scripted set-up that can be slow or fail
    /// on demand).
    public static let overrideVariable = "AGENT_INSTALL_RUNTIME_SCRIPT"

    /// The script's name beside an installed binary.
    public static let installedName = "agent-install-runtime"

    /// `executable`: the running program (only its folder counts).
    public static func locate(environment: [String: String] = ProcessInfo.processInfo.environment,
                              executable: URL = Executable.folder.appending(path: "agent")) -> URL? {
        if let override = environment[overrideVariable], !override.isEmpty {
            return URL(filePath: override)
        }
        let binary = executable.resolvingSymlinksInPath()
        let beside = binary.deletingLastPathComponent().appending(path: installedName)
        if FileManager.default.isExecutableFile(atPath: beside.path) { return beside }
        // .build/<triple>/<configuration>/agent: the source tree is above `.build`.
        var folder = binary.deletingLastPathComponent()
        while folder.path != "/" && !folder.path.isEmpty {
            if folder.lastPathComponent == ".build" {
                let script = folder.deletingLastPathComponent().appending(path: "scripts/install-runtime")
                return FileManager.default.isExecutableFile(atPath: script.path) ? script : nil
            }
            folder = folder.deletingLastPathComponent()
        }
        return nil
    }
}
