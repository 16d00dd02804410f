/// The MCP tools a connection offers: the app's servers, less the tools the user switched off.
public struct MCPTools: Sendable {
    public let hub: MCPHub
    public let disabled: Set<MCPToolKey>

    public init(hub: MCPHub, disabled: Set<MCPToolKey> = []) {
        self.hub = hub
        self.disabled = disabled
    }

    /// `toolbox` with these tools added (waiting for servers still starting), named apart from its own.
    public func adding(to toolbox: Toolbox) async -> Toolbox {
        let reserved = Set(toolbox.definitions.map(\.name))
        return Toolbox(toolbox.tools + (await hub.tools(reserved: reserved, disabled: disabled)))
    }
}
