/// A JSON-RPC 2.0 message as MCP exchanges them, classified the way a client must: a
/// request from the server (method and id, in the server's own id space), a notification
/// (method, no id), or a response to one of ours (result or error).
enum JSONRPCMessage: Sendable {
    case request(id: JSONValue, method: String, params: JSONValue?)
    case notification(method: String, params: JSONValue?)
    case response(id: JSONValue, outcome: Result<JSONValue, MCPError>)

    /// Reads one message; nil for anything else (the caller logs and skips it).
    init?(_ json: JSONValue) {
        guard case .object = json else { return nil }
        let id = json["id"]
        if let method = json["method"]?.stringValue {
            if let id, !id.isNull {
                self = .request(id: id, method: method, params: json["params"])
            } else {
                self = .notification(method: method, params: json["params"])
            }
        } else if let id {
            if let error = json["error"] {
                let code = error["code"]?.intValue ?? -32603
                let message = error["message"]?.stringValue ?? "unknown error"
                self = .response(id: id, outcome: .failure(.rpc(code: code, message: message)))
            } else if let result = json["result"] {
                self = .response(id: id, outcome: .success(result))
            } else {
                return nil
            }
        } else {
            return nil
        }
    }

    /// The number of our request that a response's `id` names (a server may echo it as a string).
    static func requestNumber(_ id: JSONValue) -> Int? {
        id.intValue ?? id.stringValue.flatMap { Int($0) }
    }

    /// Whether `json` (or a message of a batch) is the response to our request `number`.
    static func answers(_ json: JSONValue, request number: Int) -> Bool {
        if case .array(let batch) = json { return batch.contains { answers($0, request: number) } }
        guard case .response(let id, _) = JSONRPCMessage(json) else { return false }
        return requestNumber(id) == number
    }

    static func makeRequest(id: Int, method: String, params: JSONValue?) -> JSONValue {
        var members: [(key: String, value: JSONValue)] = [("jsonrpc", .string("2.0")), ("id", .number(Double(id))), ("method", .string(method))]
        if let params { members.append(("params", params)) }
        return .object(members)
    }

    static func makeNotification(method: String, params: JSONValue?) -> JSONValue {
        var members: [(key: String, value: JSONValue)] = [("jsonrpc", .string("2.0")), ("method", .string(method))]
        if let params { members.append(("params", params)) }
        return .object(members)
    }

    static func makeResult(id: JSONValue, _ result: JSONValue) -> JSONValue {
        .object([("jsonrpc", .string("2.0")), ("id", id), ("result", result)])
    }

    static func makeError(id: JSONValue, code: Int, message: String) -> JSONValue {
        .object([("jsonrpc", .string("2.0")), ("id", id),
                 ("error", .object([("code", .number(Double(code))), ("message", .string(message))]))])
    }

    static let methodNotFound = -32601
}
