/// Carries JSON-RPC messages to and from one MCP server: a child's stdin and stdout, or
/// HTTP. Messages the server sends arrive through `receive`, on the transport's thread.
protocol MCPTransport: Sendable {
    /// Opens the connection. `receive` gets every message the server sends; `closed` is
    /// called once if a lasting connection ends by itself (the process exited, the event
    /// stream ended; Streamable HTTP has none).
    func open(receive: @escaping @Sendable (JSONValue) -> Void,
              closed: @escaping @Sendable (String) -> Void) async throws

    /// Sends one message. Over HTTP the answers a POST carries arrive through `receive`
    /// before it returns; cancelling the task abandons the exchange.
    func send(_ message: JSONValue) async throws

    /// The protocol version the handshake settled on (HTTP sends it with every request).
    func negotiated(version: String)

    /// Ends the connection and whatever it started; returns when it is over.
    func close() async

    /// Whether the answer to a request arrives before `send` returns (Streamable HTTP), so
    /// a request still unanswered then will never be.
    var answersWithinSend: Bool { get }
}
