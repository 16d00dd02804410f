import FoundationEssentials

/// The built-in models the local runtime can run now: those whose files are installed.
public enum InstalledModels {
    /// Throws the runtime's own explanation when it is not installed.
    public static func builtIns(in directory: URL = LocalRuntime.defaultDirectory) throws -> [LocalModel] {
        let runtime = try LocalRuntime.locate(in: directory)
        return LocalModel.all.filter(runtime.has)
    }

    /// The installed built-ins by the name the local server reports for them.
    public static func names(in directory: URL = LocalRuntime.defaultDirectory) throws -> [String] {
        try builtIns(in: directory).map(\.displayName)
    }
}
