import AgentCore
import Foundation
import TestSupport
import Testing

/// The client against the scriptable test server: what real servers send, and what they
/// and the network do wrong.
@Suite("OpenAI chat client over HTTP")
struct OpenAIChatClientTests {
    let server = TestServer.shared

    struct Result {
        var text = ""
        var events: [ReplyEvent] = []
        var error: (any Error)?
    }

    func run(_ scenario: String, model: String = "test", apiKey: String? = nil,
             messages: [ChatMessage] = [ChatMessage(role: .user, text: "hi", state: .done)]) async -> Result {
        let endpoint = ChatEndpoint(serverURL: server.url(scenario), model: model, apiKey: apiKey.map(APIKey.init))
        var result = Result()
        do {
            for try await event in OpenAIChatClient(endpoint: endpoint).replyEvents(to: messages) {
                result.events.append(event)
                if case .text(let text) = event {
                    result.text += text
                }
            }
        } catch {
            result.error = error
        }
        return result
    }

    @Test func streamsAReplyAndSendsTheProtocolsRequest() async throws {
        let marker = uniqueMarker()
        let history = [ChatMessage(role: .user, text: "first", state: .done),
                       ChatMessage(role: .assistant, text: "answer", state: .done),
                       ChatMessage(role: .user, text: "second", state: .sending)]
        let result = await run("echo/\(marker)", model: "my-model", messages: history)
        #expect(result.error == nil)
        #expect(result.text == "Echo: second (3 messages)")
        let request = try #require(try await server.requests(containing: marker).first)
        #expect(request["method"] as? String == "POST")
        #expect((request["path"] as? String)?.hasSuffix("/v1/chat/completions") == true)
        let headers = try #require(request["headers"] as? [String: String])
        #expect(headers["accept"] == "text/event-stream")
        #expect(headers["content-type"]?.hasPrefix("application/json") == true)
        #expect(headers["authorization"] == nil)
        let body = try #require(request["body"] as? [String: Any])
        #expect(body["model"] as? String == "my-model")
        #expect(body["stream"] as? Bool == true)
        #expect((body["stream_options"] as? [String: Any])?["include_usage"] as? Bool == true, "asks for token counts")
        let messages = try #require(body["messages"] as? [[String: String]])
        #expect(messages == [["role": "user", "content": "first"], ["role": "assistant", "content": "answer"],
                             ["role": "user", "content": "second"]])
    }

    @Test("The reply arrives in pieces as the server sends them, not at the end")
    func replyArrivesInPieces() async throws {
        let scenario = server.gate()
        let endpoint = ChatEndpoint(serverURL: server.url(scenario), model: "m")
        var pieces: [String] = []
        for try await event in OpenAIChatClient(endpoint: endpoint).replyEvents(to: [ChatMessage(role: .user, text: "hi", state: .done)]) {
            guard case .text(let piece) = event else { continue }
            // The server holds the rest until released: this piece came before it.
            if pieces.isEmpty { try await server.release(scenario) }
            pieces.append(piece)
        }
        #expect(pieces.first == "Streaming", "the first word, while the server held the rest")
        #expect(pieces.count > 1)
        #expect(pieces.joined() == "Streaming reply to: hi. One token at a time, as a model writes.")
    }

    @Test func sendsTheAPIKeyAsBearer() async {
        let authorized = await run("auth", apiKey: "secret-key")
        #expect(authorized.error == nil)
        #expect(authorized.text == "Authorized reply")
        let refused = await run("auth", apiKey: "wrong")
        #expect(refused.error as? ChatError == .http(status: 401, reason: "Unauthorized",
                                                      url: server.url("auth") + "/v1/chat/completions",
                                                      message: "Invalid API key"))
    }

    @Test("No temperature set: the request carries none, so the server's default applies; a temperature set is sent",
          arguments: [nil, 0.7] as [Double?])
    func temperatureOnlyWhenSet(temperature: Double?) async throws {
        let marker = uniqueMarker()
        let endpoint = ChatEndpoint(serverURL: server.url("echo/\(marker)"), model: "m")
        let client = OpenAIChatClient(endpoint: endpoint, options: GenerationOptions(temperature: temperature))
        for try await _ in client.replyEvents(to: [ChatMessage(role: .user, text: "hi", state: .done)]) {}
        let request = try #require(try await server.requests(containing: marker).first)
        let body = try #require(request["body"] as? [String: Any])
        #expect(body.keys.contains("temperature") == (temperature != nil), "\(body.keys.sorted())")
        #expect(body["temperature"] as? Double == temperature)
    }

    @Test("A refused key, 401 or 403, is reported with the advice to check the API key", arguments: [
        ("auth", 401, "Unauthorized", "Invalid API key"),
        ("http403", 403, "Forbidden", "This key is not allowed to use this model"),
    ])
    func refusedKeyAdvice(scenario: String, status: Int, reason: String, message: String) async {
        let result = await run(scenario, apiKey: "wrong")
        let url = server.url(scenario) + "/v1/chat/completions"
        #expect(result.error as? ChatError == .http(status: status, reason: reason, url: url, message: message))
        let description = (result.error as? ChatError)?.errorDescription ?? ""
        #expect(description.contains("\(status) \(reason)") && description.contains(message), "\(description)")
        #expect(description.hasSuffix("Check the API key for this server (Preferences › Servers)."), "\(description)")
    }

    @Test("What real servers send is read correctly", arguments: [
        ("split", "héllo wörld 👋 世界"),
        ("keepalive", "Still here"),
        ("emptychoices", "Usage follows"),
        ("nullcontent", "Null tolerated"),
        ("crlf", "CRLF lines"),
        ("cr", "CR lines"),
        ("bom", "After BOM"),
        ("multiline", "Two lines"),
        ("finishonly", "Finished without DONE"),
        ("garbage", "Survived"),
    ])
    func wellFormedVariants(scenario: String, expected: String) async {
        let result = await run(scenario)
        #expect(result.error == nil)
        #expect(result.text == expected)
    }

    @Test("HTTP errors report status, URL and the server's own message", arguments: [
        ("http500", 500, "Internal Server Error", "the model crashed"),
        ("http404", 404, "Not Found", "no route for this path"),
        ("http503", 503, "Service Unavailable", "Service Unavailable"),
    ])
    func httpErrors(scenario: String, status: Int, reason: String, message: String) async {
        let result = await run(scenario)
        let url = server.url(scenario) + "/v1/chat/completions"
        let retryAfter = scenario == "http503" ? "5" : nil
        #expect(result.error as? ChatError == .http(status: status, reason: reason, url: url, message: message, retryAfter: retryAfter))
        let description = (result.error as? ChatError)?.errorDescription ?? ""
        #expect(description.contains(String(status)) && description.contains(url) && description.contains(message))
    }

    @Test func errorEventIsAppendedAndReported() async {
        let result = await run("errorevent")
        #expect(result.text == "Partial answer")
        #expect(result.events.contains(.serverError("quota exceeded for this key")))
        #expect(result.error as? ChatError == .server(message: "quota exceeded for this key"))
    }

    @Test func errorObjectInTheStreamIsReported() async {
        let result = await run("dataerror")
        #expect(result.text == "Before the error")
        #expect(result.error as? ChatError == .server(message: "context size exceeded"))
    }

    @Test("A 200 answer of one JSON object, not a stream: a completion is the reply, an error object the server's error")
    func wholeJSONInsteadOfAStream() async {
        let completion = await run("wholejson")
        #expect(completion.error == nil)
        #expect(completion.text == "Not streamed after all")
        let error = await run("wholejson-error")
        #expect(error.text.isEmpty)
        #expect(error.error as? ChatError == .server(message: "This model's maximum context length is 8192 tokens."))
        let marked = await run("wholejson-bom")
        #expect(marked.error == nil, "a byte-order mark before the object: \(String(describing: marked.error))")
        #expect(marked.text == "Not streamed after all")
    }

    @Test("A 200 answer of one JSON object whose connection drops part way is cut off, as a stream would be")
    func wholeJSONCutOff() async {
        let result = await run("wholejson-cut")
        #expect(result.text.isEmpty)
        guard case .cutOff = result.error as? ChatError else {
            Issue.record("expected cut off, got \(String(describing: result.error))")
            return
        }
    }

    @Test("A stream that ends without [DONE] or a finish reason is cut off, text kept", arguments: ["cutoff", "reset"])
    func cutOff(scenario: String) async {
        let result = await run(scenario)
        #expect(!result.text.isEmpty)
        guard case .cutOff = result.error as? ChatError else {
            Issue.record("expected cut off, got \(String(describing: result.error))")
            return
        }
    }

    @Test("HTTPS with a self-signed server: trusted through its CA file, refused without it")
    func selfSignedServer() async throws {
        let messages = [ChatMessage(role: .user, text: "secure", state: .done)]
        let trusted = ChatEndpoint(serverURL: server.tlsURL("echo"), model: "m", caFile: server.caFile)
        var text = ""
        for try await event in OpenAIChatClient(endpoint: trusted).replyEvents(to: messages) {
            if case .text(let piece) = event { text += piece }
        }
        #expect(text == "Echo: secure (1 messages)")

        let untrusted = ChatEndpoint(serverURL: server.tlsURL("echo"), model: "m")
        var caught: (any Error)?
        do {
            for try await _ in OpenAIChatClient(endpoint: untrusted).replyEvents(to: messages) {}
        } catch {
            caught = error
        }
        guard let error = caught as? ChatError, case .transport(_, let message, let cause) = error else {
            Issue.record("expected a refused certificate, got \(String(describing: caught))")
            return
        }
        #expect(message.contains("certificate"))
        #expect(cause == .untrustedCertificate)
        #expect(error.errorDescription?.hasSuffix("give Agent its CA certificate (Preferences › Servers, or --ca-file). Certificates are always checked.") == true)
    }

    @Test func refusedConnectionIsATransportError() async {
        let endpoint = ChatEndpoint(serverURL: "http://127.0.0.1:9", model: "m")
        var caught: (any Error)?
        do {
            for try await _ in OpenAIChatClient(endpoint: endpoint).replyEvents(to: []) {}
        } catch {
            caught = error
        }
        guard let error = caught as? ChatError, case .transport(let url, let message, let cause) = error else {
            Issue.record("expected a transport error, got \(String(describing: caught))")
            return
        }
        #expect(url == "http://127.0.0.1:9/v1/chat/completions")
        #expect(message.contains("onnect"))
        #expect(cause == .refused, "told by libcurl's code, not its words")
        #expect(error.errorDescription?.contains("Nothing answers at that address.") == true)
    }

    @Test func harnessPathIsJoinedToTheServerURL() async throws {
        let marker = uniqueMarker()
        let endpoint = ChatEndpoint(serverURL: server.url("echo/\(marker)") + "/", apiPath: "llmprompt", model: "m")
        var text = ""
        for try await event in OpenAIChatClient(endpoint: endpoint).replyEvents(to: [ChatMessage(role: .user, text: "x", state: .done)]) {
            if case .text(let piece) = event { text += piece }
        }
        #expect(text == "Echo: x (1 messages)")
        let request = try #require(try await server.requests(containing: marker).first)
        #expect((request["path"] as? String)?.hasSuffix("\(marker)/llmprompt") == true)
    }

    @Test("Ending the iteration closes the connection at once, even mid-stall")
    func cancellationClosesTheConnection() async throws {
        let marker = uniqueMarker()
        let endpoint = ChatEndpoint(serverURL: server.url("stall/\(marker)"), model: "m")
        let (texts, arrived) = AsyncStream.makeStream(of: String.self)
        let task = Task {
            defer { arrived.finish() }
            var text = ""
            for try await event in OpenAIChatClient(endpoint: endpoint).replyEvents(to: []) {
                if case .text(let piece) = event {
                    text += piece
                    arrived.yield(text)
                }
            }
            return text
        }
        // Cancel once the client has the first token and this request's server is stalling.
        var received = texts.makeAsyncIterator()
        #expect(await received.next() == "Waiting")
        #expect(try await server.event("stalled", containing: marker))
        task.cancel()
        let text = try await task.value
        #expect(text == "Waiting")
        #expect(try await server.event("client-closed", containing: marker), "the server saw the client hang up")
    }
}
