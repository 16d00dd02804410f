import Dispatch

/// Runs `body`, giving up after `limit`: a timer cancels the body's task and `onTimeout`'s
/// error is thrown. Cancelling the caller cancels the body.
func withTimeout<T: Sendable>(_ limit: Duration, onTimeout: @escaping @Sendable () -> any Error,
                              _ body: @escaping @Sendable () async throws -> T) async throws -> T {
    let task = Task { try await body() }
    let expired = OneShotSignal()
    let timer = DispatchWorkItem {
        expired.fire()
        task.cancel()
    }
    DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(limit.milliseconds), execute: timer)
    defer { timer.cancel() }
    do {
        return try await withTaskCancellationHandler { try await task.value } onCancel: { task.cancel() }
    } catch {
        if expired.hasFired { throw onTimeout() }
        throw error
    }
}
