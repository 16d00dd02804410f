import AgentCore
@testable import GtkFront
import Testing

@Suite("An MCP server's row")
struct MCPServerRowTests {
    @Test("A server's state in words, as its row's subtitle says it")
    func stateInWords() {
        let config = MCPServerConfig(name: "time", transport: .stdio(command: "t", arguments: [], environment: [], workingDirectory: nil))
        let tool = MCPToolDescription(name: "a", description: "", inputSchema: .object([]))
        #expect(MCPServerRow.summary(of: config, status: .starting) == "Starting…")
        #expect(MCPServerRow.summary(of: config, status: .ready(tools: [tool, tool], protocolVersion: "x")) == "2 tools")
        #expect(MCPServerRow.summary(of: config, status: .ready(tools: [tool], protocolVersion: "x")) == "1 tool")
        #expect(MCPServerRow.summary(of: config, status: .failed("exit 1\nTraceback …")) == "Failed: exit 1")
        #expect(MCPServerRow.summary(of: config, status: .declined) == "Not allowed to run")
        #expect(MCPServerRow.summary(of: config, status: .exited("exit status 1\nTraceback")) == "Ended: exit status 1 — starts again when needed")
        #expect(MCPServerRow.summary(of: config, status: .stopped) == "Stopped — starts when next needed")
        var off = config
        off.disabled = true
        #expect(MCPServerRow.summary(of: off, status: nil) == "Off")
    }
}
