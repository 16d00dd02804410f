@testable import AgentCore
import Foundation
import TestSupport
import Testing

/// API keys in a real GNOME Keyring (the Secret Service over D-Bus, through libsecret),
/// started unlocked on the tests' private session by Tests/Servers/test-session.
@Suite("API keys in the keyring (real gnome-keyring-daemon)", .serialized)
struct SecretStoreTests {

    @Test("Store, read back, replace and clear a key; nothing of it in plain text on disk")
    func roundTrip() async throws {
        let keyringFiles = try TestKeyring.directory()
        let secrets = SecretStore()
        let profile = "profile-\(UUID().uuidString)"
        let key = TestKeyring.uniqueKey()

        #expect(await secrets.key(for: profile) == nil)
        #expect(await secrets.store(APIKey(key), for: profile, label: "Agent test key"), "kept in the keyring, not the session")
        #expect(secrets.keyringProblem == nil)
        #expect(await secrets.key(for: profile)?.value == key)
        // Another store (the next start of the app) reads it from the keyring.
        #expect(await SecretStore().key(for: profile)?.value == key)

        let replacement = TestKeyring.uniqueKey()
        #expect(await secrets.store(APIKey(replacement), for: profile, label: "Agent test key"))
        #expect(await SecretStore().key(for: profile)?.value == replacement)

        #expect(FileManager.default.fileExists(atPath: keyringFiles.appending(path: "login.keyring").path))
        #expect(TestKeyring.files(containing: replacement, under: [keyringFiles] + TestKeyring.userDirectories()).isEmpty,
                "the keyring encrypts; no settings, database or cache file holds the key")

        await secrets.clear(profile)
        #expect(await SecretStore().key(for: profile) == nil)
    }

    @Test("Without a keyring: the key is kept for the session and the reason is known")
    func noKeyring() async throws {
        guard ChildTestRun.isChild else {
            // libsecret talks to the process's session bus: run this test again in a
            // process whose session bus has no Secret Service and activates nothing.
            try await ChildTestRun.passOnABusOfItsOwn("SecretStoreTests/noKeyring")
            return
        }
        let secrets = SecretStore(timeout: .seconds(3))
        let key = TestKeyring.uniqueKey()
        #expect(await secrets.store(APIKey(key), for: "p", label: "Agent test key") == false)
        let problem = try #require(secrets.keyringProblem)
        #expect(!problem.isEmpty)
        #expect(await secrets.key(for: "p")?.value == key, "usable for this session")
        await secrets.clear("p")
        #expect(await secrets.key(for: "p") == nil)
    }

    // Last: calls cut short can leave libsecret's shared connection to be made anew.
    @Test("A time limit that runs out while a call is in flight: the call gives up cleanly (its GCancellable outlives both)")
    func timeLimitRunsOutDuringTheCall() async throws {
        _ = try TestKeyring.directory()
        let hurried = SecretStore(timeout: .zero)
        for round in 0..<25 {
            let profile = "hurried-\(round)-\(UUID().uuidString)"
            _ = await hurried.store(APIKey("sk-hurried"), for: profile, label: "Agent test key")
            _ = await hurried.key(for: profile)
            await hurried.clear(profile)
        }
        #expect(await SecretStore().key(for: "never-stored-\(UUID().uuidString)") == nil, "the keyring still answers")
    }
}
