/// A name for a server pasted as a bare entry (`{"command": …}` or `{"url": …}`): what it
/// runs, as a person would call it — the package a launcher fetches (`npx -y
/// @modelcontextprotocol/server-filesystem` → `server-filesystem`, `uvx mcp-server-time`,
/// `python -m pkg`, `docker run … image`), else the program's name, else the URL's host.
enum MCPServerNaming {
    static func name(for entry: JSONValue) -> String {
        if let command = entry["command"]?.stringValue {
            let words = command.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
                + (entry["args"]?.arrayValue?.compactMap(\.stringValue) ?? [])
            if let name = name(running: words) { return name }
        }
        for key in MCPServerConfig.urlKeys {
            if let url = entry[key]?.stringValue, let host = host(of: url) { return host }
        }
        return "server"
    }

    /// The host of `url`, without user, port or path; nil if it has none.
    static func host(of url: String) -> String? {
        guard let scheme = url.firstRange(of: "://") else { return nil }
        var authority = url[scheme.upperBound...].prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        if let at = authority.lastIndex(of: "@") { authority = authority[authority.index(after: at)...] }
        let host = authority.hasPrefix("[") ? String(authority.prefix { $0 != "]" }) + "]" : String(authority.prefix { $0 != ":" })
        return host.isEmpty || host == "[]" ? nil : host.lowercased()
    }

    private static func name(running words: [String]) -> String? {
        guard let first = words.first else { return nil }
        let program = String(first.split(separator: "/").last ?? "").lowercased()
        var rest = Array(words.dropFirst())
        let package: String?
        switch program {
        case "npx", "bunx", "pnpx", "uvx":
            package = firstOperand(rest, optionsWithValue: ["-p", "--package", "--from", "--with", "--python", "--index", "-c", "--call"])
        case "npm", "pnpm", "yarn", "bun", "pipx", "uv":
            if rest.first == "tool" { rest.removeFirst() }
            guard let verb = rest.first, ["exec", "dlx", "x", "run"].contains(verb) else { return cleaned(program) }
            package = firstOperand(Array(rest.dropFirst()), optionsWithValue: ["-p", "--package", "--from", "--with", "--python", "--spec"])
        case "docker", "podman":
            guard rest.first == "run" else { return cleaned(program) }
            package = firstOperand(Array(rest.dropFirst()), optionsWithValue: [
                "-e", "--env", "--env-file", "-v", "--volume", "-p", "--publish", "--name", "--network", "--mount",
                "-w", "--workdir", "-u", "--user", "--platform", "--entrypoint", "-l", "--label", "--add-host", "-m", "--memory",
            ])
        case _ where program.hasPrefix("python") || program == "py":
            if let flag = rest.firstIndex(of: "-m"), flag + 1 < rest.count {
                package = rest[flag + 1]
            } else {
                package = firstOperand(rest, optionsWithValue: []).map(scriptName)
            }
        case "node", "deno", "tsx", "ts-node", "bash", "sh":
            package = firstOperand(rest, optionsWithValue: []).map(scriptName)
        default:
            return cleaned(withoutExtension(program))
        }
        guard let package, let name = cleaned(package) else { return cleaned(program) }
        // `npx mcp-remote https://host/sse` bridges to a remote server: the host names it.
        if name == "mcp-remote", let host = words.lazy.compactMap(host(of:)).first { return host }
        return name
    }

    /// The first argument that is not an option nor an option's value.
    private static func firstOperand(_ arguments: [String], optionsWithValue: Set<String>) -> String? {
        var skipNext = false
        for argument in arguments {
            if skipNext { skipNext = false; continue }
            if argument.hasPrefix("-") {
                skipNext = optionsWithValue.contains(argument)
                continue
            }
            return argument
        }
        return nil
    }

    /// A script's name; for `/path/weather/build/index.js` its folder's, which says more than "index".
    private static func scriptName(_ path: String) -> String {
        let parts = path.split(separator: "/").map(String.init)
        let generic: Set = ["index", "main", "server", "build", "dist", "src", "lib", "bin", "run"]
        let file = withoutExtension(parts.last ?? path)
        guard generic.contains(file) else { return file }
        return parts.dropLast().last { !generic.contains($0) } ?? file
    }

    /// A package, image or script reference as a name: no scope or path, version, tag or extras.
    private static func cleaned(_ reference: String) -> String? {
        var text = Substring(reference)
        if text.contains("://") {
            text = text.split(separator: "/").last ?? ""
            if text.hasSuffix(".git") { text = text.dropLast(4) }
        }
        if let version = text.dropFirst().firstIndex(of: "@") { text = text[..<version] }  // pkg@1.2, image@sha256:…
        text = text.split(separator: "/").last ?? ""
        text = text.prefix { !"=<>~![;: ".contains($0) }  // pkg==1.0, pkg[extra], image:tag
        return text.isEmpty ? nil : withoutExtension(String(text))
    }

    private static func withoutExtension(_ file: String) -> String {
        for suffix in [".py", ".js", ".mjs", ".cjs", ".ts", ".sh", ".exe"] where file.hasSuffix(suffix) && file.count > suffix.count {
            return String(file.dropLast(suffix.count))
        }
        return file
    }
}
