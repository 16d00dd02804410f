import FoundationEssentials

/// Where the running program is: its folder, from `/proc/self/exe` — `argv[0]` is only
/// `agent` when a shell found it on `PATH` — so an installed program finds its `share/`
/// one level up, and one run from the build tree (`.build/<triple>/debug`) finds `.build`.
public enum Executable {
    public static let folder: URL = {
        let path = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
            ?? CommandLine.arguments.first ?? ""
        return URL(filePath: path).resolvingSymlinksInPath().deletingLastPathComponent()
    }()

    /// `.build` when the program runs from the build tree, else nil.
    public static var buildTree: URL? {
        let tree = folder.deletingLastPathComponent().deletingLastPathComponent()
        return tree.lastPathComponent == ".build" ? tree : nil
    }

    /// `<prefix>/share` of an installed program.
    public static var sharedData: URL {
        folder.deletingLastPathComponent().appending(path: "share", directoryHint: .isDirectory)
    }
}
