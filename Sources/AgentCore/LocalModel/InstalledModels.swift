import FoundationEssentials

/// The models the local runtime can run now: those whose files are installed, by the name
/// the local server reports for them.
public enum InstalledModels {
    /// Throws the runtime's own explanation when it is not installed.
    public static func names(in directory: URL = LocalRuntime.defaultDirectory) throws -> [String] {
        let runtime = try LocalRuntime.locate(in: directory)
        return LocalModel.all.filter(runtime.has).map(\.displayName)
    }
}
