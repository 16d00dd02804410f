/// The tool calls approved ahead on the command line (`--allow-tools all|NAME[,NAME…]`),
/// for runs where nobody can be asked. A name is the one `--list-tools` prints, the
/// server's own name for the tool, or `SERVER/TOOL`.
public enum ToolAllowance: Sendable, Equatable {
    case all
    case named(Set<String>)

    public init(parsing value: String) {
        let names = Self.names(in: value)
        self = names.contains("all") ? .all : .named(names)
    }

    /// The names in a comma-separated list, as `--allow-tools` and `--tools` take them.
    public static func names(in list: String) -> Set<String> {
        Set(list.split(separator: ",").map { String($0).trimmed }.filter { !$0.isEmpty })
    }

    public func allows(_ question: MCPToolCallQuestion) -> Bool {
        switch self {
        case .all: true
        case .named(let names):
            names.contains(question.name) || names.contains(question.tool.name) || names.contains("\(question.server)/\(question.tool.name)")
        }
    }
}
