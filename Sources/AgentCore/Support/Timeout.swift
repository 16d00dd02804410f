/// Runs `body`, giving up after `limit`: the body's task is cancelled and `onTimeout`'s
/// error thrown. Cancelling the caller cancels the body.
func withTimeout<T: Sendable>(_ limit: Duration, onTimeout: @escaping @Sendable () -> any Error,
                              _ body: @escaping @Sendable () async throws -> T) async throws -> T {
    try await withThrowingTaskGroup(of: T.self) { group in
        group.addTask { try await body() }
        group.addTask {
            try await Task.sleep(for: limit)
            throw onTimeout()
        }
        defer { group.cancelAll() }
        guard let first = try await group.next() else { throw CancellationError() }
        return first
    }
}
