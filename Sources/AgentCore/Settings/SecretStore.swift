import CGLib
import CSecret
import Dispatch
import Synchronization

/// API keys in the Secret Service (GNOME Keyring and the like) through libsecret, one per
/// server profile — never in settings files, the database or logs. Every call has a time
/// limit (a locked keyring can otherwise wait forever for an unlock prompt). Without a
/// keyring, keys live in memory for this session only, and `keyringProblem` says why.
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
            try await call { cancellable, error in
                agent_secret_store(profile, label, key.value, cancellable, &error) != 0
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
        _ = try? await call { cancellable, error in
            agent_secret_clear(profile, cancellable, &error) != 0 || error == nil
        }
    }

    private func lookup(_ profile: String) async throws -> String? {
        let result = Mutex<String?>(nil)
        try await call { cancellable, error in
            guard let password = agent_secret_lookup(profile, cancellable, &error) else { return error == nil }
            result.withLock { $0 = String(cString: password) }
            secret_password_free(password)
            return true
        }
        return result.withLock { $0 }
    }

    /// Runs a blocking libsecret call on its own thread, cancelled after the time limit.
    private func call(_ body: @escaping @Sendable (UnsafeMutablePointer<GCancellable>?, inout UnsafeMutablePointer<GError>?) -> Bool) async throws {
        let timeoutMilliseconds = timeout.milliseconds
        let outcome: Result<Void, Unavailable> = await withCheckedContinuation { continuation in
            DetachedThread.start {
                // Two references: the call's, dropped when it returns, and the timer's,
                // dropped when it fires — whichever comes last frees it.
                let cancellable = g_cancellable_new()
                g_object_ref(UnsafeMutableRawPointer(cancellable))
                let handle = CancellableHandle(pointer: cancellable)
                DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(timeoutMilliseconds)) {
                    g_cancellable_cancel(handle.pointer)
                    g_object_unref(UnsafeMutableRawPointer(handle.pointer))
                }
                var error: UnsafeMutablePointer<GError>?
                let succeeded = body(cancellable, &error)
                g_object_unref(UnsafeMutableRawPointer(cancellable))
                if succeeded && error == nil {
                    continuation.resume(returning: .success(()))
                } else {
                    let message = error.map { String(cString: $0.pointee.message) } ?? tr("the keyring refused")
                    if let error { g_error_free(error) }
                    continuation.resume(returning: .failure(Unavailable(description: message)))
                }
            }
        }
        switch outcome {
        case .success:
            problem.withLock { $0 = nil }
        case .failure(let unavailable):
            problem.withLock { $0 = unavailable.description }
            throw unavailable
        }
    }

    /// A GCancellable handed to the timer; GObject references are thread-safe.
    private struct CancellableHandle: @unchecked Sendable {
        let pointer: UnsafeMutablePointer<GCancellable>?
    }
}
