/// Why the MCP configuration, or text pasted into it, could not be used — worded for the user.
public struct MCPConfigError: Error, Sendable, Equatable, CustomStringConvertible {
    public let description: String

    public init(_ description: String) {
        self.description = description
    }
}
