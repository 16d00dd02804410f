/// What the "Add Manually" form describes, read into an `mcp.json` entry: a command with
/// its arguments and environment, or a URL with its headers — those whose values are
/// secrets set apart for the keyring, never written in the file.
public struct MCPServerForm: Equatable, Sendable {
    public var name = ""
    /// A command (possibly with arguments) or an http(s) URL.
    public var commandOrURL = ""
    /// More arguments, on one line, split at blanks; quotes keep blanks in a word.
    public var arguments = ""
    /// `NAME=value`, one a line.
    public var environment = ""
    /// `Name: value`, one a line.
    public var headers = ""
    /// The `Authorization` header's value, typed in its own password field.
    public var authorization = ""

    public init(name: String = "", commandOrURL: String = "", arguments: String = "", environment: String = "",
                headers: String = "", authorization: String = "") {
        self.name = name
        self.commandOrURL = commandOrURL
        self.arguments = arguments
        self.environment = environment
        self.headers = headers
        self.authorization = authorization
    }

    public enum Field: Equatable, Sendable {
        case name, commandOrURL, arguments, environment, headers
    }

    /// Why the form cannot be saved, worded for the user, and the field to point at.
    public struct Problem: Error, Equatable, Sendable {
        public let field: Field
        public let message: String
    }

    /// An HTTP server (the field holds a URL) rather than a program to run.
    public var isURL: Bool {
        let lowered = commandOrURL.trimmed.lowercased()
        return lowered.hasPrefix("http://") || lowered.hasPrefix("https://")
    }

    /// The first thing in the way of saving it; nil when it can be saved. `taken`: names in use.
    public func problem(taken: [String]) -> Problem? {
        do {
            _ = try entry(taken: taken)
            return nil
        } catch {
            return error
        }
    }

    /// The entry for `mcp.json` and the headers for the keyring.
    public func entry(taken: [String] = []) throws(Problem) -> (name: String, entry: JSONValue, secretHeaders: [MCPServerConfig.Variable]) {
        let name = name.trimmed
        guard !name.isEmpty else { throw Problem(field: .name, message: tr("Give the server a name.")) }
        guard !taken.contains(name) else { throw Problem(field: .name, message: tr("There is already a server named “%s”.", name)) }
        let target = commandOrURL.trimmed
        guard !target.isEmpty else {
            throw Problem(field: .commandOrURL, message: tr("Type the command that starts the server, or its URL."))
        }
        if isURL {
            let rest = target.drop { $0 != ":" }.dropFirst(3)
            guard let host = rest.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false).first, !host.isEmpty,
                  !target.contains(where: \.isWhitespace) else {
                throw Problem(field: .commandOrURL, message: tr("The URL needs a host, such as https://example.com/mcp."))
            }
            let (plain, secret) = try splitHeaders()
            var members: [(key: String, value: JSONValue)] = [("url", .string(target))]
            if !plain.isEmpty { members.append(("headers", .object(plain.map { ($0.name, .string($0.value)) }))) }
            return (name, .object(members), secret)
        }
        guard let words = Self.words(target), let command = words.first else {
            throw Problem(field: .commandOrURL, message: tr("A quote in the command is not closed."))
        }
        guard let more = Self.words(arguments) else {
            throw Problem(field: .arguments, message: tr("A quote in the arguments is not closed."))
        }
        // TRANSLATORS: how an environment variable is written in the form; NAME and value are placeholders.
        let variables = try lines(of: environment, field: .environment, separator: "=", example: tr("NAME=value"))
        var members: [(key: String, value: JSONValue)] = [("command", .string(command))]
        let allArguments = Array(words.dropFirst()) + more
        if !allArguments.isEmpty { members.append(("args", .array(allArguments.map(JSONValue.string)))) }
        if !variables.isEmpty { members.append(("env", .object(variables.map { ($0.name, .string($0.value)) }))) }
        return (name, .object(members), [])
    }

    /// The headers to write in the file, and those whose values are secrets (the
    /// Authorization field's among them).
    private func splitHeaders() throws(Problem) -> (plain: [MCPServerConfig.Variable], secret: [MCPServerConfig.Variable]) {
        // TRANSLATORS: how an HTTP header is written in the form; Name and value are placeholders.
        var all = try lines(of: headers, field: .headers, separator: ":", example: tr("Name: value"))
        let authorization = authorization.trimmed
        if !authorization.isEmpty {
            all.removeAll { $0.name.lowercased() == "authorization" }
            all.append(.init(name: "Authorization", value: authorization))
        }
        return (all.filter { !MCPKeyringHeaders.isSecret($0.name) }, all.filter { MCPKeyringHeaders.isSecret($0.name) })
    }

    /// `name<separator>value` lines; blank lines are skipped.
    private func lines(of text: String, field: Field, separator: Character,
                       example: String) throws(Problem) -> [MCPServerConfig.Variable] {
        var variables: [MCPServerConfig.Variable] = []
        for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = String(line).trimmed
            if line.isEmpty { continue }
            guard let split = line.firstIndex(of: separator), case let key = String(line[..<split]).trimmed, !key.isEmpty,
                  !key.contains(where: \.isWhitespace) else {
                // TRANSLATORS: %1$s is a line's number, %2$s an example ("NAME=value").
                throw Problem(field: field, message: tr("Line %1$s: write it as %2$s.", UserLocale.number(number + 1), example))
            }
            variables.append(.init(name: key, value: String(line[line.index(after: split)...]).trimmed))
        }
        return variables
    }

    /// Words split at blanks as a shell would: 'single' and "double" quotes keep blanks in
    /// a word, a backslash keeps the next character. Nil when a quote is left open.
    public static func words(_ text: String) -> [String]? {
        var words: [String] = []
        var current = ""
        var inWord = false
        var quote: Character?
        var escaped = false
        for character in text {
            if escaped {
                current.append(character)
                escaped = false
            } else if let open = quote {
                if character == open {
                    quote = nil
                } else if character == "\\" && open == "\"" {
                    escaped = true
                } else {
                    current.append(character)
                }
            } else if character == "'" || character == "\"" {
                quote = character
                inWord = true
            } else if character == "\\" {
                escaped = true
                inWord = true
            } else if character.isWhitespace {
                if inWord { words.append(current) }
                current = ""
                inWord = false
            } else {
                current.append(character)
                inWord = true
            }
        }
        guard quote == nil, !escaped else { return nil }
        if inWord { words.append(current) }
        return words
    }
}
