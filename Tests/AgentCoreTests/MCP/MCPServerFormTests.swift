import AgentCore
import Testing

/// The "Add Manually" form read into an mcp.json entry: commands with their arguments and
/// environment, URLs with their headers (secret ones kept apart for the keyring), and the
/// problems that keep Add off. No display needed.
@Suite("The MCP server form")
struct MCPServerFormTests {
    @Test("A command: the first word runs, the rest and the arguments field are its arguments; quotes keep blanks")
    func command() throws {
        let form = MCPServerForm(name: " files ", commandOrURL: "npx -y @modelcontextprotocol/server-filesystem",
                                 arguments: "'/home/me/My Documents' \"a \\\"b\\\"\" c\\ d", environment: "DEBUG=1\n\nTOKEN = x=y\n")
        let (name, entry, secrets) = try form.entry()
        #expect(name == "files")
        #expect(entry == .object([
            ("command", .string("npx")),
            ("args", .array(["-y", "@modelcontextprotocol/server-filesystem", "/home/me/My Documents", "a \"b\"", "c d"].map(JSONValue.string))),
            ("env", .object([("DEBUG", .string("1")), ("TOKEN", .string("x=y"))])),
        ]))
        #expect(secrets.isEmpty)
        #expect(!form.isURL)
    }

    @Test("A URL: plain headers go in the entry, secret ones (and the Authorization field) to the keyring")
    func url() throws {
        let form = MCPServerForm(name: "web", commandOrURL: "https://mcp.example.com/mcp", arguments: "ignored",
                                 headers: "X-Team: blue\nX-API-Key: k1\nAuthorization: Bearer old", authorization: "Bearer new")
        let (_, entry, secrets) = try form.entry()
        #expect(form.isURL)
        #expect(entry == .object([("url", .string("https://mcp.example.com/mcp")), ("headers", .object([("X-Team", .string("blue"))]))]))
        #expect(secrets == [.init(name: "X-API-Key", value: "k1"), .init(name: "Authorization", value: "Bearer new")])
    }

    @Test("What keeps Add off: no name, a name in use, nothing to run, a URL without a host, an open quote, a malformed line")
    func problems() {
        func problem(_ form: MCPServerForm) -> MCPServerForm.Field? { form.problem(taken: ["time"])?.field }
        #expect(problem(MCPServerForm(name: "", commandOrURL: "npx x")) == .name)
        #expect(problem(MCPServerForm(name: "time", commandOrURL: "npx x")) == .name)
        #expect(problem(MCPServerForm(name: "a", commandOrURL: "  ")) == .commandOrURL)
        #expect(problem(MCPServerForm(name: "a", commandOrURL: "https:///mcp")) == .commandOrURL)
        #expect(problem(MCPServerForm(name: "a", commandOrURL: "npx", arguments: "'open")) == .arguments)
        #expect(problem(MCPServerForm(name: "a", commandOrURL: "npx", environment: "JUSTANAME")) == .environment)
        #expect(problem(MCPServerForm(name: "a", commandOrURL: "https://x.example", headers: "Bad header")) == .headers)
        #expect(problem(MCPServerForm(name: "a", commandOrURL: "npx", headers: "Bad header")) == nil, "headers are for URLs only")
        #expect(MCPServerForm(name: "time", commandOrURL: "x").problem(taken: ["time"])?.message == "There is already a server named “time”.")
    }
}
