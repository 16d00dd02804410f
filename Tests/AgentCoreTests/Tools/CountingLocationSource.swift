import AgentCore
import Synchronization
import TestSupport

/// A location source that counts how often it was asked (GeoClue, as the tool sees it).
final class CountingLocationSource: LocationSource {
    private let count = Mutex(0)

    var asked: Int { count.withLock { $0 } }

    func currentLocation() async throws -> Coordinates {
        count.withLock { $0 += 1 }
        return TestTools.paris
    }
}
