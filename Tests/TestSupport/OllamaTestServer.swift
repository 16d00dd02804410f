import AgentCore
import Foundation

/// The scripted Ollama (Tests/Servers/ollama_scripted_server.py), one per test process,
/// started on first use on a free port: model lists that pulls and deletes change, pulls
/// that progress layer by layer, hold until released, or fail as Ollama fails.
public final class OllamaTestServer: Sendable {
    public static let shared: OllamaTestServer = {
        do {
            return try OllamaTestServer()
        } catch {
            fatalError("could not start the scripted Ollama: \(error)")
        }
    }()

    public let port: Int
    private let script: ServerScript

    /// The base URL of a new model store of its own (two models at first). `paceMilliseconds`:
    /// the time between progress lines; `holding`: every pull stops half way through its first
    /// layer until `release(_:in:)`.
    public func store(paceMilliseconds: Int = 5, holding: Bool = false) -> String {
        "http://127.0.0.1:\(port)/o/p\(paceMilliseconds)" + (holding ? "-hold" : "") + "-\(uniqueMarker())"
    }

    /// Lets a held pull of `model` (its full name, `name:tag`) go on.
    public func release(_ model: String, in store: String) async throws {
        _ = try await HTTPClient.fetch(HTTPRequest(url: "http://127.0.0.1:\(port)/_release/\(storeName(store))/\(model)"))
    }

    /// The names of the events ("held", "client-closed") of `model` in `store`, in order.
    public func events(of model: String, in store: String) async throws -> [String] {
        let data = try await HTTPClient.fetch(HTTPRequest(url: "http://127.0.0.1:\(port)/_events")).body
        let all = (try JSONSerialization.jsonObject(with: data) as? [[String: Any]]) ?? []
        let name = storeName(store)
        return all.filter { $0["store"] as? String == name && $0["model"] as? String == model }.compactMap { $0["event"] as? String }
    }

    /// Whether the event `event` of `model` in `store` happens within `timeout`.
    public func event(_ event: String, of model: String, in store: String, within timeout: Duration = .seconds(10)) async throws -> Bool {
        let deadline = ContinuousClock.now + timeout * TestTiming.scale
        while ContinuousClock.now < deadline {
            if try await events(of: model, in: store).contains(event) { return true }
            try await Task.sleep(for: .milliseconds(10))
        }
        return try await events(of: model, in: store).contains(event)
    }

    private func storeName(_ store: String) -> String {
        String(store.split(separator: "/").last ?? "")
    }

    private init() throws {
        script = try ServerScript("ollama_scripted_server.py")
        guard script.fields.count == 2, let port = Int(script.fields[1]) else { throw CocoaError(.fileReadCorruptFile) }
        self.port = port
    }
}
