import AgentCore
import Foundation
import Glibc
import TestSupport
import Testing

@Suite("Settings in GSettings")
struct SettingsStoreTests {
    static func temporaryFolder() -> URL {
        FileManager.default.temporaryDirectory.appending(path: "agent-settings-\(UUID().uuidString)", directoryHint: .isDirectory)
    }

    @Test("Values round-trip through the schema's keys; a value the schema refuses is dropped, not crashed on")
    func typedValues() throws {
        let file = Self.temporaryFolder().appending(path: "settings")
        let settings = try SettingsStore(keyFile: file)
        #expect(settings.contextBudget == 4096 && settings.temperature == nil && settings.localModel == .smolLM2)
        settings.temperature = 0.4
        settings.maxTokens = 200
        settings.systemPrompt = "Be kind."
        settings.localModel = .gemma3
        settings.disabledTools = ["get_location"]
        settings.manualLocation = Coordinates(latitude: 1.5, longitude: -2)
        settings.root.set("context-budget", 10)  // below the schema's range
        settings.root.set("temperature", 9.0)  // above it
        let again = try SettingsStore(keyFile: file)
        #expect(again.temperature == 0.4 && again.maxTokens == 200 && again.systemPrompt == "Be kind.")
        #expect(again.localModel == .gemma3 && again.disabledTools == ["get_location"])
        #expect(again.manualLocation == Coordinates(latitude: 1.5, longitude: -2))
        #expect(again.contextBudget == 4096, "out of range: ignored")
    }

    @Test("A delayed copy (Preferences) writes nothing until applied, then all of it")
    func delayedCopy() throws {
        let settings = try TestTools.settings()
        let delayed = try settings.delayedCopy()
        delayed.systemPrompt = "Typed letter by letter"
        let profile = ServerProfile(name: "Box", url: "http://box:8080", model: "m")
        delayed.saveProfile(profile)
        #expect(delayed.systemPrompt == "Typed letter by letter", "the copy reads its own changes")
        #expect(settings.systemPrompt.isEmpty && settings.serverProfiles.isEmpty, "nothing written yet")
        delayed.apply()
        #expect(settings.systemPrompt == "Typed letter by letter")
        #expect(settings.serverProfiles == [profile])
        settings.removeProfile(profile.id)
        #expect(settings.serverProfiles.isEmpty && settings.activeProfileID == localProfileID)
    }

    @Test("An earlier version's settings.ini is moved into GSettings once, and kept, readable by its owner only")
    func keyFileMigration() throws {
        let folder = Self.temporaryFolder()
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let ini = folder.appending(path: "settings.ini")
        try """
            [general]
            profile=box

            [profile box]
            name=GPU box
            url=https://box:8443
            protocol=ollama
            model=qwen3
            tools=false

            [local]
            model=gemma3

            [generation]
            temperature=0.2
            max-tokens=64
            context-tokens=8192
            system-prompt=Answer briefly.

            [network]
            idle-timeout=120

            [location]
            consent=always
            manual=48.8566,2.3522

            [tools]
            disabled=get_datetime

            [window]
            width=900
            height=600
            maximized=true
            last-chat=6F0E2A8B-3C0D-4C57-9E0A-1A2B3C4D5E6F

            [identity]
            installation=abc123
            """.write(to: ini, atomically: true, encoding: .utf8)
        chmod(ini.path, 0o644)
        let settings = try TestTools.settings()
        #expect(try KeyFileMigration.run(from: ini, into: settings))
        #expect(settings.serverProfiles == [ServerProfile(id: "box", name: "GPU box", url: "https://box:8443", protocol: .ollama,
                                                          model: "qwen3", toolsEnabled: false)])
        #expect(settings.activeProfileID == "box" && settings.localModel == .gemma3)
        #expect(settings.temperature == 0.2 && settings.maxTokens == 64 && settings.contextBudget == 8192)
        #expect(settings.systemPrompt == "Answer briefly." && settings.idleTimeout == .seconds(120))
        #expect(settings.locationAlwaysAllowed && settings.manualLocation == Coordinates(latitude: 48.8566, longitude: 2.3522))
        #expect(settings.disabledTools == ["get_datetime"])
        #expect(settings.root.int("window-width") == 900 && settings.root.bool("window-maximized"))
        #expect(settings.lastChat?.uuidString == "6F0E2A8B-3C0D-4C57-9E0A-1A2B3C4D5E6F")
        #expect(settings.installationID == "abc123")

        #expect(!FileManager.default.fileExists(atPath: ini.path), "migrated once: not read again")
        let kept = folder.appending(path: "settings.ini.migrated")
        let mode = try #require(try FileManager.default.attributesOfItem(atPath: kept.path)[.posixPermissions] as? Int)
        #expect(mode == 0o600)
        #expect(try !KeyFileMigration.run(from: ini, into: settings))
        // A settings.ini that comes back (or could not be set aside) is not read again: the
        // settings changed since stay.
        settings.temperature = 0.9
        try "[generation]\ntemperature=0.2\n".write(to: ini, atomically: true, encoding: .utf8)
        #expect(try !KeyFileMigration.run(from: ini, into: settings))
        #expect(settings.temperature == 0.9)
    }
}
