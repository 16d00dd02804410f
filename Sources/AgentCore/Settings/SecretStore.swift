import CGLib
import CSecret
import Dispatch
import Synchronization

/// API keys in the Secret Service (GNOME Keyring and the like) through libsecret, one per
/// server profile — never in settings files, the database or logs. The caller waits for the
/// keyring up to a time limit (a locked keyring can otherwise wait forever for an unlock
/// prompt); past it, the call is left to finish while later ones queue behind it, each
/// caller waiting no longer than its own limit. Without a keyring, keys live in memory for
/// this session only, and `keyringProblem` says why.
public final class SecretStore: Sendable {
    public struct Unavailable: Error, Sendable, Equatable, CustomStringConvertible {
        public let description: String
    }

    private let sessionKeys = Mutex<[String: String]>([:])
    private let problem = Mutex<String?>(nil)
    private let timeout: Duration
    public init(timeout: Duration = .seconds(5)) {
        self.timeout = timeout
    }

    /// Why the keyring could not be used, after a call found it so.
    public var keyringProblem: String? { problem.withLock { $0 } }

    /// Stores `key` for `profile`; returns false when it could only be kept for the session.
    @discardableResult
    public func store(_ key: APIKey, for profile: String, label: String) async -> Bool {
        do {
            try await call { error in
                agent_secret_store(profile, label, key.value, &error) != 0
            }
            sessionKeys.withLock { $0[profile] = nil }
            return true
        } catch {
            sessionKeys.withLock { $0[profile] = key.value }
            return false
        }
    }

    /// The key for `profile`, from the keyring or this session.
    public func key(for profile: String) async -> APIKey? {
        if let session = sessionKeys.withLock({ $0[profile] }) { return APIKey(session) }
        let found = try? await lookup(profile)
        return found.map(APIKey.init)
    }

    public func clear(_ profile: String) async {
        sessionKeys.withLock { $0[profile] = nil }
        _ = try? await call { error in
            agent_secret_clear(profile, &error) != 0 || error == nil
        }
    }

    private func lookup(_ profile: String) async throws -> String? {
        let result = Mutex<String?>(nil)
        try await call { error in
            guard let password = agent_secret_lookup(profile, &error) else { return error == nil }
            result.withLock { $0 = String(cString: password) }
            secret_password_free(password)
            return true
        }
        return result.withLock { $0 }
    }

    /// Why a call went unanswered: the keyring took longer than the time limit.
    private var tooLate: Unavailable {
        // TRANSLATORS: why the keyring could not be used: it (the keyring) gave no answer in time; %s is seconds.
        Unavailable(description: tr("it did not answer within %s s", UserLocale.number(Double(timeout.milliseconds) / 1000, upToFractionDigits: 1)))
    }

    /// Keyring calls run one at a time, in the order they were made: a write that outlives
    /// its caller's time limit still lands before the next call (a clear after it, say).
    private static let queue = DispatchQueue(label: "io.github.agentdesktop.Agent.keyring")

    /// Runs a blocking libsecret call on the keyring's queue and waits for it up to the time
    /// limit. A call past the limit is left to finish on its own, its outcome dropped: it is
    /// not cancelled (see CSecret/shim.h).
    private func call(_ body: @escaping @Sendable (inout UnsafeMutablePointer<GError>?) -> Bool) async throws {
        let answered = OneShotSignal()
        let answer = Mutex<Result<Void, Unavailable>?>(nil)
        Self.queue.async {
            var error: UnsafeMutablePointer<GError>?
            let succeeded = body(&error)
            let outcome: Result<Void, Unavailable>
            if succeeded && error == nil {
                outcome = .success(())
            } else {
                outcome = .failure(Unavailable(description: error.map { String(cString: $0.pointee.message) } ?? tr("the keyring refused")))
            }
            if let error { g_error_free(error) }
            answer.withLock { $0 = outcome }
            answered.fire()
        }
        let outcome = await answered.wait(upTo: timeout) ? answer.withLock { $0 } : nil
        switch outcome ?? .failure(tooLate) {
        case .success:
            problem.withLock { $0 = nil }
        case .failure(let unavailable):
            problem.withLock { $0 = unavailable.description }
            throw unavailable
        }
    }
}
