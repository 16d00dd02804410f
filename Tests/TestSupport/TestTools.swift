import AgentCore
import Foundation
import Synchronization

/// Tools with known answers, for scripting tool-calling rounds.
public enum TestTools {
    public static let paris = Coordinates(latitude: 48.8566, longitude: 2.3522)
    /// 2026-11-29 14:30:00 UTC.
    public static let fixedDate = Date(timeIntervalSince1970: 1_795_962_600)

    /// `get_location` (fixed: no consent asked), `get_datetime` (fixed clock, Paris time) and `forecast`.
    public static func toolbox() throws -> Toolbox {
        Toolbox([
            LocationTool(settings: try settings(), source: nil, fixedLocation: paris,
                         askConsent: { .deny }),
            DateTimeTool(now: { fixedDate }, timeZone: TimeZone(identifier: "Europe/Paris") ?? .current),
            ForecastTool(),
        ])
    }

    /// Settings of the test's own, in a key file nothing else uses (the compiled schema comes
    /// from the build tree: `make schemas`).
    public static func settings() throws -> SettingsStore {
        try SettingsStore(keyFile: FileManager.default.temporaryDirectory.appending(path: "agent-tests-\(UUID().uuidString)/settings"))
    }
}

/// `forecast`: a tool with typed, required and optional arguments, to test validation.
public struct ForecastTool: Tool {
    public init() {}

    public var definition: ToolDefinition {
        ToolDefinition(name: "forecast", description: "Weather forecast for a city", parameters: .object([
            ("type", .string("object")),
            ("properties", .object([
                ("city", .object([("type", .string("string"))])),
                ("days", .object([("type", .string("integer")), ("minimum", .number(1)), ("maximum", .number(16))])),
                ("metric", .object([("type", .string("boolean"))])),
            ])),
            ("required", .array([.string("city"), .string("days")])),
            ("additionalProperties", .bool(false)),
        ]))
    }

    public func run(_ arguments: JSONValue) async throws -> String {
        let city = arguments["city"]?.stringValue ?? "?"
        let days = Int(arguments["days"]?.numberValue ?? 0)
        let units = arguments["metric"]?.boolValue == false ? "imperial" : "metric"
        return "\(city): sunny for \(days) days (\(units))"
    }
}

/// Everything a turn reported, collected from whatever thread it came on.
public final class TurnRecorder: Sendable {
    private let events = Mutex<[ChatTurn.Event]>([])

    public init() {}

    public func record(_ event: ChatTurn.Event) {
        events.withLock { $0.append(event) }
    }

    public var all: [ChatTurn.Event] { events.withLock { $0 } }

    public var text: String {
        var text = ""
        for case .reply(let reply) in all {
            if let piece = reply.transcriptText(replyIsEmpty: text.isEmpty) { text += piece }
        }
        return text
    }

    public var finishedCalls: [ToolCall] {
        all.compactMap { if case .toolFinished(let call) = $0 { call } else { nil } }
    }

    public var problems: [String] {
        all.compactMap { if case .problem(let message) = $0 { message } else { nil } }
    }
}
