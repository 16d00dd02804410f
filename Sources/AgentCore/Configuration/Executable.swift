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
    public static var buildTree: URL? { buildTree(holding: folder) }

    /// The `.build` folder holding a program's `folder`: `.build/<triple>/<configuration>`,
    /// or a build with its own scratch folder inside it (`scripts/sanitize` builds in
    /// `.build/sanitize-<kind>/<triple>/<configuration>`), whose program still reads the
    /// schemas and catalogs `make` puts in `.build`; nil for any other folder.
    public static func buildTree(holding folder: URL) -> URL? {
        let triple = folder.deletingLastPathComponent()
        let tree = triple.deletingLastPathComponent()
        if tree.lastPathComponent == ".build" { return tree }
        let outer = tree.deletingLastPathComponent()
        return outer.lastPathComponent == ".build" ? outer : nil
    }

    /// `<prefix>/share` of an installed program.
    public static var sharedData: URL {
        folder.deletingLastPathComponent().appending(path: "share", directoryHint: .isDirectory)
    }
}
