import AgentCore
import Foundation
import Testing

@Suite("MCP configuration (mcp.json)")
struct MCPConfigTests {
    static func servers(_ text: String, environment: [String: String] = [:]) throws -> [MCPServerConfig] {
        let loaded = try MCPConfigDocument(parsing: text).servers(environment: environment)
        #expect(loaded.problems.isEmpty)
        return loaded.servers
    }

    @Test("A Claude Desktop file: stdio servers with args and env, in file order")
    func claudeDesktop() throws {
        let servers = try Self.servers(#"""
            {
              "mcpServers": {
                "filesystem": {
                  "command": "npx",
                  "args": ["-y", "@modelcontextprotocol/server-filesystem", "/Users/me/Desktop"]
                },
                "github": {
                  "command": "docker",
                  "args": ["run", "-i", "--rm", "-e", "GITHUB_PERSONAL_ACCESS_TOKEN", "ghcr.io/github/github-mcp-server"],
                  "env": {"GITHUB_PERSONAL_ACCESS_TOKEN": "ghp_x", "LOG": "debug"}
                }
              },
              "globalShortcut": "Ctrl+Space"
            }
            """#)
        #expect(servers.map(\.name) == ["filesystem", "github"])
        #expect(servers[0].transport == .stdio(command: "npx", arguments: ["-y", "@modelcontextprotocol/server-filesystem", "/Users/me/Desktop"],
                                              environment: [], workingDirectory: nil))
        #expect(servers[1].transport == .stdio(
            command: "docker", arguments: ["run", "-i", "--rm", "-e", "GITHUB_PERSONAL_ACCESS_TOKEN", "ghcr.io/github/github-mcp-server"],
            environment: [.init(name: "GITHUB_PERSONAL_ACCESS_TOKEN", value: "ghp_x"), .init(name: "LOG", value: "debug")],
            workingDirectory: nil))
        #expect(servers.allSatisfy { $0.isStdio && !$0.disabled && $0.timeout == nil })
    }

    @Test("Cursor: a url and headers without a type is Streamable HTTP; ${env:NAME} is expanded")
    func cursorURL() throws {
        let servers = try Self.servers(#"""
            {"mcpServers": {"remote": {"url": "https://mcp.example.com/mcp", "headers": {"Authorization": "Bearer ${env:TOKEN}", "X-Team": "a"}}}}
            """#, environment: ["TOKEN": "s3cret"])
        #expect(servers == [MCPServerConfig(name: "remote", transport: .http(
            url: "https://mcp.example.com/mcp",
            headers: [.init(name: "Authorization", value: "Bearer s3cret"), .init(name: "X-Team", value: "a")]))])
        #expect(servers[0].commandLine == nil && !servers[0].isStdio)
    }

    @Test("VS Code: top-level servers, inputs and comments; ${input:…} is not an environment variable and stays")
    func vsCode() throws {
        let servers = try Self.servers(#"""
            {
              // Inputs are asked for by VS Code.
              "inputs": [{"type": "promptString", "id": "key", "description": "API key", "password": true}],
              "servers": {
                "fetch": {"type": "stdio", "command": "uvx", "args": ["mcp-server-fetch"], "envFile": "${workspaceFolder}/.env"},
                "api": {"type": "http", "url": "https://api.example.com/mcp", "headers": {"Key": "${input:key}"}}, /* trailing comma: */
              }
            }
            """#)
        #expect(servers.map(\.name) == ["fetch", "api"])
        #expect(servers[0].transport == .stdio(command: "uvx", arguments: ["mcp-server-fetch"], environment: [], workingDirectory: nil))
        #expect(servers[1].transport == .http(url: "https://api.example.com/mcp", headers: [.init(name: "Key", value: "${input:key}")]))
    }

    @Test("Windsurf: serverUrl is Streamable HTTP")
    func windsurf() throws {
        let servers = try Self.servers(#"{"mcpServers": {"gh": {"serverUrl": "https://api.githubcopilot.com/mcp/", "headers": {"A": "b"}}}}"#)
        #expect(servers.first?.transport == .http(url: "https://api.githubcopilot.com/mcp/", headers: [.init(name: "A", value: "b")]))
    }

    @Test("Gemini CLI: httpUrl is Streamable HTTP and its timeout is in milliseconds; Cline's small timeouts are seconds")
    func geminiTimeouts() throws {
        let servers = try Self.servers(#"""
            {"mcpServers": {
              "gemini": {"httpUrl": "http://localhost:8080/mcp", "timeout": 30000, "trust": true, "includeTools": ["a"]},
              "cline": {"command": "server", "timeout": 45, "autoApprove": []},
              "silly": {"command": "server", "timeout": 1e300}
            }}
            """#)
        #expect(servers[0].transport == .http(url: "http://localhost:8080/mcp", headers: []))
        #expect(servers[0].timeout == .seconds(30))
        #expect(servers[1].timeout == .seconds(45))
        #expect(servers[2].timeout == .seconds(86_400), "capped, not trapped")
        #expect(MCPServerConfig.defaultTimeout == .seconds(60))
    }

    @Test("Transport type spellings of Claude Code, Cline, Roo and LangChain")
    func typeSpellings() throws {
        let url = "https://h/mcp"
        for spelling in ["http", "streamable-http", "streamableHttp", "streamable_http", "HTTP"] {
            let servers = try Self.servers(#"{"mcpServers": {"s": {"type": "\#(spelling)", "url": "\#(url)"}}}"#)
            #expect(servers.first?.transport == .http(url: url, headers: []), "\(spelling)")
        }
        let sse = try Self.servers(#"{"mcpServers": {"s": {"type": "sse", "url": "\#(url)", "headers": {"K": "v"}}}}"#)
        #expect(sse.first?.transport == .sse(url: url, headers: [.init(name: "K", value: "v")]))
        let stdio = try Self.servers(#"{"mcpServers": {"s": {"type": "stdio", "command": "x", "cwd": "/srv"}}}"#)
        #expect(stdio.first?.transport == .stdio(command: "x", arguments: [], environment: [], workingDirectory: "/srv"))
        let unknown = try MCPConfigDocument(parsing: #"{"mcpServers": {"s": {"type": "websocket", "url": "wss://h"}}}"#)
        #expect(unknown.servers(environment: [:]).problems == ["Server “s”: unknown “type” “websocket” (expected stdio, http or sse)."])
    }

    @Test("disabled: true is read, and setDisabled writes or removes it")
    func disabled() throws {
        var document = try MCPConfigDocument(parsing: #"{"mcpServers": {"a": {"command": "a", "disabled": true}, "b": {"command": "b"}}}"#)
        #expect(document.servers(environment: [:]).servers.map(\.disabled) == [true, false])
        document.setDisabled(false, name: "a")
        document.setDisabled(true, name: "b")
        document.setDisabled(true, name: "missing")
        #expect(document.json["mcpServers"]?["a"] == .object([("command", .string("a"))]))
        #expect(document.json["mcpServers"]?["b"] == .object([("command", .string("b")), ("disabled", .bool(true))]))
        #expect(document.serverNames == ["a", "b"])
    }

    @Test("${VAR}, ${env:VAR} and ${VAR:-default} are expanded in command, args, env, cwd, url and headers; unset is empty")
    func expansion() throws {
        let environment = ["HOME": "/home/me", "TOKEN": "t0k", "EMPTY": ""]
        let servers = try Self.servers(#"""
            {"mcpServers": {
              "local": {"command": "${HOME}/bin/server", "args": ["--root=${env:HOME}/notes", "${UNSET}", "${LEVEL:-info}", "${EMPTY:-fallback}", "$HOME", "${not a var}"],
                        "env": {"KEY": "${TOKEN}", "MISSING": "[${NOPE}]"}, "cwd": "${HOME}/work"},
              "remote": {"url": "${BASE:-https://example.com}/mcp", "headers": {"Authorization": "Bearer ${env:TOKEN}"}}
            }}
            """#, environment: environment)
        #expect(servers[0].transport == .stdio(
            command: "/home/me/bin/server", arguments: ["--root=/home/me/notes", "", "info", "fallback", "$HOME", "${not a var}"],
            environment: [.init(name: "KEY", value: "t0k"), .init(name: "MISSING", value: "[]")], workingDirectory: "/home/me/work"))
        #expect(servers[1].transport == .http(url: "https://example.com/mcp", headers: [.init(name: "Authorization", value: "Bearer t0k")]))
    }

    @Test("Unknown keys, other apps' settings and unexpanded ${VAR} text survive add, remove, setDisabled and a text round trip")
    func keepsWhatTheUserWrote() throws {
        let original = #"""
            {"theme": "dark", "mcpServers": {"one": {"command": "uvx", "args": ["a"], "autoApprove": ["x"], "env": {"K": "${SECRET}"}},
             "two": {"url": "https://h/mcp", "x-note": {"nested": [1, 2.5, null, "é\n"]}}}, "zzz": [] }
            """#
        var document = try MCPConfigDocument(parsing: original)
        document.add(name: "three", entry: .object([("command", .string("three"))]))
        document.add(name: "one", entry: .object([("command", .string("uvx")), ("args", .array([.string("b")])), ("autoApprove", .array([.string("x")]))]))
        document.remove(name: "two")
        document.setDisabled(true, name: "three")
        #expect(document.json.objectValue?.map(\.key) == ["theme", "mcpServers", "zzz"])
        #expect(document.serverNames == ["one", "three"], "a replaced server keeps its place")
        #expect(document.json["mcpServers"]?["one"]?["autoApprove"] == .array([.string("x")]))

        let untouched = try MCPConfigDocument(parsing: original)
        #expect(untouched.json["mcpServers"]?["one"]?["env"]?["K"] == .string("${SECRET}"))
        #expect(try MCPConfigDocument(parsing: untouched.text) == untouched)
        #expect(try MCPConfigDocument(parsing: document.text) == document)
        #expect(MCPConfigDocument().text == "{\n  \"mcpServers\": {}\n}\n")
        #expect(document.text.hasPrefix("{\n  \"theme\": \"dark\",\n  \"mcpServers\": {\n    \"one\": {\n      \"command\": \"uvx\",\n      \"args\": [\n        \"b\"\n      ],"))
        #expect(document.text.hasSuffix("  \"zzz\": []\n}\n"))
    }

    @Test("An entry that cannot be understood is a problem; the others load")
    func badEntries() throws {
        let document = try MCPConfigDocument(parsing: #"""
            {"mcpServers": {
              "good": {"command": "ok"},
              "nothing": {"autoApprove": []},
              "args": {"command": "x", "args": "--flag"},
              "env": {"command": "x", "env": {"PORT": 8080}},
              "string": "npx -y thing",
              "scheme": {"url": "localhost:8080/mcp"},
              "alsoGood": {"url": "https://h/mcp"}
            }}
            """#)
        let loaded = document.servers(environment: [:])
        #expect(loaded.servers.map(\.name) == ["good", "alsoGood"])
        #expect(loaded.problems == [
            "Server “nothing”: it has neither a “command” nor a “url”.",
            "Server “args”: “args” must be a list of text values.",
            "Server “env”: “env”: the value of “PORT” must be text.",
            "Server “string”: its entry must be an object, such as {\"command\": …} or {\"url\": …}.",
            "Server “scheme”: its URL “localhost:8080/mcp” must start with http:// or https://.",
        ])
        #expect(throws: MCPConfigError.self) { try MCPConfigDocument(parsing: #"{"mcpServers": []}"#) }
        #expect(throws: MCPConfigError.self) { try MCPConfigDocument(parsing: "[]") }
        #expect(try MCPConfigDocument(parsing: "  \n") == MCPConfigDocument(), "an empty file is an empty document")
    }

    @Test("A command with spaces and no args is used as written, not split")
    func commandNotSplit() throws {
        let servers = try Self.servers(#"{"mcpServers": {"s": {"command": "npx -y pkg"}}}"#)
        #expect(servers.first?.transport == .stdio(command: "npx -y pkg", arguments: [], environment: [], workingDirectory: nil))
        #expect(servers.first?.commandLine == "'npx -y pkg'")
    }

    @Test("A pasted single entry is named for its package, program or host")
    func pastedNames() throws {
        func name(_ text: String) throws -> String? { try MCPConfigDocument.entries(pasted: text).first?.name }
        #expect(try name(#"{"command":"uvx","args":["mcp-server-time"]}"#) == "mcp-server-time")
        #expect(try name(#"{"command":"npx","args":["-y","@modelcontextprotocol/server-filesystem","/tmp"]}"#) == "server-filesystem")
        #expect(try name(#"{"url":"https://mcp.example.com/mcp"}"#) == "mcp.example.com")
        #expect(try name(#"{"serverUrl":"https://user@Example.COM:8443/sse?x=1"}"#) == "example.com")
        #expect(try name(#"{"command":"npx","args":["-y","@upstash/context7-mcp@latest"]}"#) == "context7-mcp")
        #expect(try name(#"{"command":"uvx","args":["--from","git+https://github.com/x/y","mcp-server-git==1.0"]}"#) == "mcp-server-git")
        #expect(try name(#"{"command":"python3","args":["-m","mcp_server_time","--local-timezone","UTC"]}"#) == "mcp_server_time")
        #expect(try name(#"{"command":"node","args":["/home/me/weather/build/index.js"]}"#) == "weather")
        #expect(try name(#"{"command":"docker","args":["run","-i","--rm","-e","TOKEN","ghcr.io/github/github-mcp-server:latest"]}"#)
            == "github-mcp-server")
        #expect(try name(#"{"command":"npx","args":["mcp-remote","https://remote.example.org/sse"]}"#) == "remote.example.org")
        #expect(try name(#"{"command":"/opt/tools/my-server"}"#) == "my-server")
        #expect(try name(#"{"command":"npx -y pkg-in-command"}"#) == "pkg-in-command")
    }

    @Test("Pasted files, bare objects and fragments give their own names")
    func pastedCollections() throws {
        let claude = try MCPConfigDocument.entries(pasted: #"{"mcpServers": {"a": {"command": "x"}, "b": {"url": "https://h"}}}"#)
        #expect(claude.map(\.name) == ["a", "b"])
        let vsCode = try MCPConfigDocument.entries(pasted: #"{"servers": {"c": {"type": "stdio", "command": "x"}}, "inputs": []}"#)
        #expect(vsCode.map(\.name) == ["c"])
        let bare = try MCPConfigDocument.entries(pasted: #"{"time": {"command": "uvx", "args": ["mcp-server-time"]}}"#)
        #expect(bare.map(\.name) == ["time"] && bare[0].entry["args"] == .array([.string("mcp-server-time")]))
        let fragment = try MCPConfigDocument.entries(pasted: "\"time\": {\"command\": \"uvx\"},\n")
        #expect(fragment.map(\.name) == ["time"])
        let unexpanded = try MCPConfigDocument.entries(pasted: #"{"remote": {"url": "${BASE}/mcp"}}"#)
        #expect(unexpanded.first?.entry["url"] == .string("${BASE}/mcp"), "kept as written, to expand when used")
    }

    @Test("Paste errors say what is wrong, in words")
    func pasteErrors() {
        func error(_ text: String) -> String? {
            do {
                _ = try MCPConfigDocument.entries(pasted: text)
                return nil
            } catch {
                return error.description
            }
        }
        #expect(error("{\n  \"mcpServers\": {\n    \"a\": {\"command\": \"x\"\n  }\n") == "This is not JSON: expected ',' or '}' at line 5, column 1.")
        #expect(error("{\n \"a\": 1,\n \"b\" 2}")?.hasPrefix("This is not JSON: expected ':' at line 3") == true)
        #expect(error("npx -y thing")?.hasPrefix("This is not JSON: ") == true)
        #expect(error(#"{"name": "x", "version": "1"}"#)?.hasPrefix("No MCP server found in it: expected \"mcpServers\"") == true)
        #expect(error("[1, 2]")?.hasPrefix("No MCP server found in it") == true)
        #expect(error(#"{"mcpServers": {}}"#) == "No MCP server found in it: “mcpServers” is empty.")
        #expect(error(#"{"command": "x", "args": [1]}"#) == "Server “x”: “args” must be a list of text values.")
    }

    @Test("Saved atomically with mode 0600 in a new 0700 folder, loaded back the same; a missing file is an empty document")
    func saveAndLoad() throws {
        let folder = FileManager.default.temporaryDirectory.appending(path: "agent-mcp-\(UUID().uuidString)/config", directoryHint: .isDirectory)
        defer { try? FileManager.default.removeItem(at: folder.deletingLastPathComponent()) }
        let file = folder.appending(path: "mcp.json")
        #expect(try MCPConfigDocument.load(from: file) == MCPConfigDocument())

        var document = MCPConfigDocument()
        document.add(name: "time", entry: .object([("command", .string("uvx")), ("args", .array([.string("mcp-server-time")]))]))
        try document.save(to: file)
        try document.save(to: file)
        #expect(try MCPConfigDocument.load(from: file) == document)
        #expect(try String(contentsOf: file, encoding: .utf8) == document.text)
        let fileMode = try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? Int
        let folderMode = try FileManager.default.attributesOfItem(atPath: folder.path)[.posixPermissions] as? Int
        #expect(fileMode == 0o600 && folderMode == 0o700)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["mcp.json"], "no temporary file left")

        try "{\"mcpServers\": {\"a\": }".write(to: file, atomically: true, encoding: .utf8)
        #expect(throws: MCPConfigError.self) { try MCPConfigDocument.load(from: file) }
        #expect(MCPConfigDocument.defaultLocation.path.hasSuffix("/io.github.agentdesktop.Agent/mcp.json"))
    }

    @Test("The consent dialog's command line quotes what a shell would need quoted, and shows hidden characters")
    func commandLineQuoting() {
        func line(_ command: String, _ arguments: [String]) -> String? {
            MCPServerConfig(name: "s", transport: .stdio(command: command, arguments: arguments, environment: [], workingDirectory: nil)).commandLine
        }
        #expect(line("npx", ["-y", "@scope/pkg@1.2", "--dir=/tmp/a,b", "key=value"]) == "npx -y @scope/pkg@1.2 --dir=/tmp/a,b key=value")
        #expect(line("/opt/My Tools/server", ["it's", "$HOME", "", "a\"b", "*.txt", "~/x"])
            == #"'/opt/My Tools/server' 'it'\''s' '$HOME' '' 'a"b' '*.txt' '~/x'"#)
        #expect(line("sh", ["-c", "echo hi\nrm -rf ~", "safe\u{202E}txt.exe"]) == #"sh -c $'echo hi\nrm -rf ~' $'safe\u202etxt.exe'"#)
    }

    @Test("The launch fingerprint changes with an argument, an environment value or the folder, and only then")
    func fingerprint() {
        func config(_ arguments: [String], _ value: String, cwd: String? = nil, disabled: Bool = false) -> MCPServerConfig {
            MCPServerConfig(name: "s", transport: .stdio(command: "npx", arguments: arguments, environment: [.init(name: "KEY", value: value)],
                                                         workingDirectory: cwd), disabled: disabled)
        }
        let base = config(["-y", "pkg"], "one")
        #expect(base.launchFingerprint.count == 16 && base.launchFingerprint == config(["-y", "pkg"], "one").launchFingerprint)
        #expect(base.launchFingerprint == config(["-y", "pkg"], "one", disabled: true).launchFingerprint)
        #expect(base.launchFingerprint != config(["-y", "pkg2"], "one").launchFingerprint)
        #expect(base.launchFingerprint != config(["-y", "pkg"], "two").launchFingerprint)
        #expect(base.launchFingerprint != config(["-y", "pkg"], "one", cwd: "/tmp").launchFingerprint)
        #expect(config(["a b"], "x").launchFingerprint != config(["a", "b"], "x").launchFingerprint)
        let remote = MCPServerConfig(name: "r", transport: .http(url: "https://a/mcp", headers: []))
        #expect(remote.launchFingerprint != MCPServerConfig(name: "r", transport: .http(url: "https://b/mcp", headers: [])).launchFingerprint)
    }

    @Test("caFile: an HTTPS server's own CA certificates, expanded like the rest")
    func caFile() throws {
        let found = try Self.servers(#"{"mcpServers": {"s": {"url": "https://h/mcp", "caFile": "${HOME}/ca.pem"}}}"#,
                                     environment: ["HOME": "/home/u"])
        #expect(found.first?.caFile == "/home/u/ca.pem")
    }
}
