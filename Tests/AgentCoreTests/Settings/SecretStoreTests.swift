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

    @Test("A time limit that runs out before the keyring answers: the caller goes on with the session's key; the calls still land, in order")
    func timeLimitRunsOutBeforeTheAnswer() async throws {
        _ = try TestKeyring.directory()
        let hurried = SecretStore(timeout: .zero)
        var profiles: [String] = []
        var pastTheLimit = 0
        for round in 0..<25 {
            let profile = "hurried-\(round)-\(UUID().uuidString)"
            profiles.append(profile)
            if await !hurried.store(APIKey("sk-hurried-\(round)"), for: profile, label: "Agent test key") {
                pastTheLimit += 1
                #expect(hurried.keyringProblem?.hasPrefix("it did not answer within") == true, "\(hurried.keyringProblem ?? "")")
                #expect(await hurried.key(for: profile)?.value == "sk-hurried-\(round)", "kept for the session meanwhile")
            }
            if round % 2 == 0 { await hurried.clear(profile) }
        }
        #expect(pastTheLimit > 0, "a limit of zero runs out before the keyring answers")
        // A patient store's call queues behind the hurried ones: by its answer, they have landed.
        let patient = SecretStore(timeout: .seconds(60))
        for (round, profile) in profiles.enumerated() {
            let stored = await patient.key(for: profile)?.value
            #expect(stored == (round % 2 == 0 ? nil : "sk-hurried-\(round)"), "round \(round): a clear lands after its store")
            await patient.clear(profile)
        }
        #expect(patient.keyringProblem == nil)
    }
}
