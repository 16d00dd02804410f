/// The MCP versions Agent speaks. Handshake-era versions negotiate with `initialize`; the
/// stateless 2026-07-28 version has no handshake and carries its version in every request.
public enum MCPProtocolVersion {
    /// What `initialize` offers.
    public static let offered = "2025-11-25"
    /// What a server may answer `initialize` with.
    public static let handshake: Set<String> = ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"]
    /// The stateless protocol: `server/discover`, `_meta` on every request, no session.
    public static let stateless = "2026-07-28"
}
