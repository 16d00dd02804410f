import AgentCore
import Foundation

/// `agent-cli`'s MCP servers: those of `--mcp-config FILE` (the user named them: they start
/// without asking) or the app's own `mcp.json` with `--mcp` (commands the app has not been
/// allowed to run are asked about on the terminal); and the commands that list and call
/// tools without a model.
enum CLIServers {
    /// The servers the options name, or nil. Entries that cannot be used are named on stderr.
    static func tools(_ options: LaunchOptions, settings: SettingsStore) -> MCPTools? {
        let file: URL
        if let path = options.mcpConfig {
            file = URL(filePath: path)
            guard FileManager.default.isReadableFile(atPath: path) else {
                AgentCLI.fail(usage: tr("cannot read the MCP configuration “%s”", path))
            }
        } else if options.useAppMCP {
            file = MCPConfigDocument.defaultLocation
        } else {
            return nil
        }
        let document: MCPConfigDocument
        do {
            document = try MCPConfigDocument.load(from: file)
        } catch {
            AgentCLI.writeFailure("\(file.path): \(error)")
            AgentCLI.exit(1)
        }
        let (configs, problems) = document.servers(environment: ProcessInfo.processInfo.environment)
        for problem in problems { AgentCLI.writeError("agent-cli: \(file.path): \(problem)") }
        let named = options.mcpConfig != nil
        let approvedLaunches = named ? [] : settings.approvedMCPLaunches
        // A tool called by name with --call-tool is the user's own command: nobody to ask.
        let allowance = options.callTool != nil ? .all : options.allowedTools
        let hub = MCPHub(configs: configs.filter { !$0.disabled }, approver: TerminalToolApprover(allowance: allowance),
                         caFile: options.caFile) { config in
            if named || approvedLaunches.contains(config.launchFingerprint) { return true }
            // TRANSLATORS: %1$s is an MCP server's name, %2$s the command it runs.
            let question = tr("The MCP server “%1$s” would run this command with your rights:\n  %2$s", config.name, config.commandLine ?? "")
                + "\n" + launchDetails(config) + tr("Run it?")
            // TRANSLATORS: %s is an MCP server's name.
            let refusal = tr("the MCP server “%s” was not started: its command has not been allowed in Agent and there is no terminal to ask (name the file with --mcp-config to run its servers)",
                             config.name)
            return await TerminalConsent.ask(question, refusal: refusal, offerAlways: false) != .deny
        }
        return MCPTools(hub: hub, disabled: named ? [] : settings.disabledMCPTools)
    }

    /// The folder and the environment variables (names only) a command would run with.
    private static func launchDetails(_ config: MCPServerConfig) -> String {
        guard case .stdio(_, _, let environment, let folder) = config.transport else { return "" }
        var lines = ""
        // TRANSLATORS: under a command the user is asked to run: the folder it runs in.
        if let folder { lines += "  " + tr("in %s", folder) + "\n" }
        // TRANSLATORS: under a command the user is asked to run: the environment variables it gets (their names).
        if !environment.isEmpty { lines += "  " + tr("setting %s", environment.map(\.name).joined(separator: ", ")) + "\n" }
        return lines
    }

    /// `--list-tools`: one line per tool; a server that failed is named on stderr. Nothing
    /// once stopped (Ctrl+C).
    static func listTools(toolbox: Toolbox, mcp: MCPTools?) async {
        let everything = await allTools(toolbox, mcp)
        guard !Task.isCancelled else { return }
        for tool in everything.tools { StandardStreams.line(line(tool)) }
    }

    /// Agent's tools and every server's, once each server has started or failed (failures
    /// named on stderr).
    private static func allTools(_ toolbox: Toolbox, _ mcp: MCPTools?) async -> Toolbox {
        guard let mcp else { return toolbox }
        await start(mcp)
        return await mcp.adding(to: toolbox)
    }

    private static func line(_ tool: any Tool) -> String {
        let description = tool.definition.description.split(separator: "\n", omittingEmptySubsequences: true).first.map(String.init) ?? ""
        return "\(tool.definition.name)\t\(tool.server ?? "builtin")\t\(description)"
    }

    /// Starts the servers and names on stderr those that could not start. Stopped (Ctrl+C), it
    /// waits for them no longer, only for a question open about one to end.
    static func start(_ mcp: MCPTools) async {
        await mcp.hub.startAllAndWait()
        guard !Task.isCancelled else { return await TerminalConsent.settled() }
        reportFailures(mcp.hub)
    }

    private static func reportFailures(_ hub: MCPHub) {
        for server in hub.servers {
            switch server.status {
            case .failed(let reason), .exited(let reason):
                // TRANSLATORS: %1$s is an MCP server's name, %2$s why it failed.
                AgentCLI.writeError("agent-cli: " + tr("MCP server “%1$s” failed: %2$s", server.config.name, reason))
            case .declined:
                AgentCLI.writeError("agent-cli: " + tr("MCP server “%s” was not started", server.config.name))
            default:
                break
            }
        }
    }

    /// `--call-tool NAME --arguments JSON --repeat N`: calls the tool as the model would
    /// (arguments checked against its schema) and prints the result; false when a call failed.
    /// Once stopped (Ctrl+C), no further call is made.
    static func callTool(_ options: LaunchOptions, toolbox: Toolbox, mcp: MCPTools?) async -> Bool {
        guard let name = options.callTool else { return true }
        var arguments = JSONValue.object([])
        if let text = options.toolArguments {
            do {
                arguments = try JSONParser.parse(text)
            } catch {
                AgentCLI.fail(usage: tr("--arguments is not JSON: %s", "\(error)"))
            }
        }
        let everything = await allTools(toolbox, mcp)
        var failed = false
        for index in 0..<options.repeatCount where !Task.isCancelled {
            let started = ContinuousClock.now
            let outcome = await everything.run(ToolCall(id: "cli-\(index)", name: name, arguments: arguments))
            let elapsed = ContinuousClock.now - started
            if index == 0 { StandardStreams.line(outcome.text) }
            if options.repeatCount > 1 {
                AgentCLI.writeError("call \(elapsed.components.seconds * 1_000_000 + elapsed.components.attoseconds / 1_000_000_000_000)")
            }
            failed = failed || outcome.isFailure
        }
        return !failed
    }
}
