import AgentCore
import Foundation
import Synchronization
import TestSupport
import Testing

/// A location source that answers as told, to drive the tool's own decisions.
struct ScriptedLocationSource: LocationSource {
    let answer: Result<Coordinates, GeoClueLocationSource.Unavailable>
    func currentLocation() async throws -> Coordinates { try answer.get() }
}

/// The user's answers, in order, and how often they were asked.
final class ConsentScript: Sendable {
    private let state: Mutex<(answers: [Consent], asked: Int)>

    init(_ answers: [Consent]) {
        state = Mutex((answers, 0))
    }

    var asked: Int { state.withLock { $0.asked } }

    func ask() -> Consent {
        state.withLock { state in
            state.asked += 1
            return state.answers.isEmpty ? .deny : state.answers.removeFirst()
        }
    }
}

@Suite("get_location: consent, GeoClue, manual fallback")
struct LocationToolTests {
    let berlin = Coordinates(latitude: 52.52, longitude: 13.405)

    func tool(settings: SettingsStore, source: (any LocationSource)?, script: ConsentScript) -> LocationTool {
        LocationTool(settings: settings, source: source) { script.ask() }
    }

    @Test func denyGivesTheModelARefusal() async throws {
        let script = ConsentScript([.deny])
        let tool = tool(settings: try TestTools.settings(),
                        source: ScriptedLocationSource(answer: .success(berlin)), script: script)
        let outcome = await Toolbox([tool]).run(ToolCall(id: "1", name: "get_location", arguments: .object([])))
        #expect(outcome == .failed("the user declined to share their location"))
        #expect(script.asked == 1)
    }

    @Test("Allow once asks every time; Always Allow is remembered in settings")
    func consentIsRemembered() async throws {
        let file = FileManager.default.temporaryDirectory.appending(path: "agent-tests-\(UUID().uuidString)/settings")
        let settings = try SettingsStore(keyFile: file)
        let script = ConsentScript([.allowOnce, .allowAlways])
        let tool = tool(settings: settings, source: ScriptedLocationSource(answer: .success(berlin)), script: script)
        #expect(try await tool.run(.object([])) == "latitude: 52.52, longitude: 13.405")
        #expect(try await tool.run(.object([])) == "latitude: 52.52, longitude: 13.405")
        #expect(try await tool.run(.object([])) == "latitude: 52.52, longitude: 13.405")
        #expect(script.asked == 2, "the third call did not ask")
        #expect(try SettingsStore(keyFile: file).locationAlwaysAllowed, "saved for the next start")
    }

    @Test func manualLocationServesWhenGeoClueCannot() async throws {
        let settings = try TestTools.settings()
        settings.locationAlwaysAllowed = true
        let failing = ScriptedLocationSource(answer: .failure(.init(description: "no GeoClue")))
        let withoutManual = tool(settings: settings, source: failing, script: ConsentScript([]))
        await #expect(throws: ToolFailure("the location is unavailable (no GeoClue) and no manual location is set")) {
            try await withoutManual.run(.object([]))
        }
        settings.manualLocation = Coordinates(latitude: -33.8688, longitude: 151.2093)
        #expect(try await withoutManual.run(.object([])) == "latitude: -33.8688, longitude: 151.2093")
    }

    @Test("Stopped before it runs: neither the user nor GeoClue is asked, even when always allowed")
    func stoppedAsksNobody() async throws {
        let source = CountingLocationSource()
        for alwaysAllowed in [false, true] {
            let settings = try TestTools.settings()
            settings.locationAlwaysAllowed = alwaysAllowed
            let script = ConsentScript([.allowOnce])
            let tool = tool(settings: settings, source: source, script: script)
            let outcome = await Task {
                withUnsafeCurrentTask { $0?.cancel() }
                return await Toolbox([tool]).run(ToolCall(id: "1", name: "get_location", arguments: .object([])))
            }.value
            #expect(outcome == .failed("get_location was cancelled"))
            #expect(script.asked == 0)
        }
        #expect(source.asked == 0)
    }

    @Test("A location given for the run (--location) needs no consent")
    func fixedLocation() async throws {
        let script = ConsentScript([])
        let tool = LocationTool(settings: try TestTools.settings(), source: nil,
                                fixedLocation: berlin) { script.ask() }
        #expect(try await tool.run(.object([])) == "latitude: 52.52, longitude: 13.405")
        #expect(script.asked == 0)
    }

    @Test("GeoClue2 over D-Bus, against a mock of its interfaces on a private bus")
    func geoClue() async throws {
        let bus = try PrivateBus()
        try bus.startMock(template: PrivateBus.template("geoclue2_template.py"), busName: "org.freedesktop.GeoClue2",
                          parameters: ["latitude": 45.5017, "longitude": -73.5673, "accuracy": 12.0])
        let location = try await GeoClueLocationSource(busAddress: bus.address, timeout: .seconds(10)).currentLocation()
        #expect(location == Coordinates(latitude: 45.5017, longitude: -73.5673, accuracy: 12.0))
    }

    @Test("No GeoClue on the bus: a clear error, and the manual location is used")
    func geoClueMissing() async throws {
        let bus = try PrivateBus()
        let source = GeoClueLocationSource(busAddress: bus.address, timeout: .seconds(2))
        await #expect(throws: GeoClueLocationSource.Unavailable.self) { try await source.currentLocation() }
        let settings = try TestTools.settings()
        settings.locationAlwaysAllowed = true
        settings.manualLocation = Coordinates(latitude: 1.5, longitude: 2.5)
        let tool = LocationTool(settings: settings, source: source) { Consent.deny }
        #expect(try await tool.run(.object([])) == "latitude: 1.5, longitude: 2.5")
    }
}
