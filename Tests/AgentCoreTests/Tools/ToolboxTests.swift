import AgentCore
import Foundation
import TestSupport
import Testing

@Suite("Toolbox and argument validation")
struct ToolboxTests {
    let toolbox: Toolbox

    init() throws {
        toolbox = try TestTools.toolbox()
    }

    func call(_ name: String, _ arguments: JSONValue) async -> Toolbox.Outcome {
        await toolbox.run(ToolCall(id: "c", name: name, arguments: arguments))
    }

    @Test func validArgumentsRunTheTool() async {
        let outcome = await call("forecast", .object([("city", .string("Oslo")), ("days", .number(2)), ("metric", .bool(false))]))
        #expect(outcome == .result("Oslo: sunny for 2 days (imperial)"))
    }

    @Test("Arguments are checked against the schema before the tool runs", arguments: [
        (JSONValue.object([("days", .number(2))]), "$.city is required"),
        (.object([("city", .number(7)), ("days", .number(2))]), "$.city must be string, not a number"),
        (.object([("city", .string("X")), ("days", .number(2.5))]), "$.days must be integer"),
        (.object([("city", .string("X")), ("days", .number(40))]), "$.days must be ≤ 16"),
        (.object([("city", .string("X")), ("days", .number(1)), ("color", .string("red"))]), "$.color is not an accepted argument"),
        (.string("{not json"), "$ must be object, not a string"),
        (.array([]), "$ must be object, not an array"),
    ])
    func invalidArguments(arguments: JSONValue, problem: String) async {
        let outcome = await call("forecast", arguments)
        guard case .failed(let message) = outcome else {
            Issue.record("expected a validation failure, got \(outcome)")
            return
        }
        #expect(message.contains(problem), "\(message)")
        #expect(outcome.text.hasPrefix("Error: invalid arguments for forecast"))
    }

    @Test("No arguments (null or empty) count as an empty object")
    func emptyArguments() async {
        #expect(await call("get_location", .null) == .result("latitude: 48.8566, longitude: 2.3522"))
        #expect(await call("get_location", .string("")) == .result("latitude: 48.8566, longitude: 2.3522"))
    }

    @Test func unknownToolsAreReportedNotRun() async {
        let outcome = await call("rm_rf", .object([]))
        guard case .unknownTool(let message) = outcome else {
            Issue.record("expected an unknown tool, got \(outcome)")
            return
        }
        #expect(message.contains("rm_rf") && message.contains("get_location, get_datetime, forecast"))
    }

    @Test func enumAndNestedSchemas() {
        let schema = JSONValue.object([
            ("type", .string("object")),
            ("properties", .object([
                ("unit", .object([("enum", .array([.string("c"), .string("f")]))])),
                ("tags", .object([("type", .string("array")), ("items", .object([("type", .string("string"))]))])),
                ("name", .object([("type", .array([.string("string"), .string("null")])), ("maxLength", .number(3))])),
            ])),
        ])
        #expect(JSONSchemaValidator.problems(in: .object([("unit", .string("c")), ("tags", .array([.string("a")])), ("name", .null)]),
                                             against: schema).isEmpty)
        let problems = JSONSchemaValidator.problems(in: .object([("unit", .string("k")), ("tags", .array([.number(1)])),
                                                                 ("name", .string("long"))]), against: schema)
        #expect(problems == [#"$.unit must be one of "c", "f""#, "$.tags[0] must be string, not a number",
                             "$.name must have at most 3 characters"])
    }

    @Test("Length bounds no Int can hold, negative or NaN (an MCP server's schema) are held or ignored, not trapped on")
    func outOfRangeLengthBounds() {
        func problems(_ text: String, _ keyword: String, _ bound: Double) -> [String] {
            JSONSchemaValidator.problems(in: .string(text), against: .object([(keyword, .number(bound))]))
        }
        #expect(problems("abc", "minLength", 1e19) == ["$ must have at least \(Int.max) characters"])
        #expect(problems("abc", "minLength", .infinity) == ["$ must have at least \(Int.max) characters"])
        #expect(problems("abc", "maxLength", -1e19).isEmpty)
        #expect(problems("abc", "maxLength", .nan).isEmpty)
        #expect(problems("abc", "maxLength", 1e19).isEmpty)
        #expect(problems("a", "minLength", 1.5) == ["$ must have at least 2 characters"])
        #expect(problems("abcd", "maxLength", 3.5) == ["$ must have at most 3 characters"])
    }

    @Test func dateTimeToolSaysDateTimeAndZone() async throws {
        let tool = DateTimeTool(now: { TestTools.fixedDate }, timeZone: TimeZone(identifier: "America/New_York"))
        #expect(try await tool.run(.object([])) == "date: 2026-11-29 (Sunday), time: 09:30:00, time zone: America/New_York (UTC-05:00)")
    }

    @Test func disabledToolsAreLeftOut() throws {
        let settings = try TestTools.settings()
        settings.disabledTools = ["get_location"]
        let toolbox = Toolbox.standard(settings: settings, locationSource: nil, askConsent: { .deny })
        #expect(toolbox.definitions.map(\.name) == ["get_datetime"])
        settings.disabledTools = ["get_location", "get_datetime"]
        #expect(Toolbox.standard(settings: settings, locationSource: nil, askConsent: { .deny }).isEmpty)
    }
}
