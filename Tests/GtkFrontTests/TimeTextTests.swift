import FoundationEssentials
@testable import GtkFront
import Testing

@Suite("Message times as the window shows them")
struct TimeTextTests {
    @Test("Today: the time alone; another day: day, month and year too; in the formats the catalog gives (English here)")
    func formats() throws {
        let now = Date()
        let today = TimeText.short(now, now: now)
        #expect(today.wholeMatch(of: /\d\d:\d\d/) != nil, "\(today)")
        let earlier = TimeText.short(now.addingTimeInterval(-400 * 86_400), now: now)
        #expect(earlier.wholeMatch(of: /\d{1,2} [A-Z][a-z]{2} \d{4}, \d\d:\d\d/) != nil, "\(earlier)")
        #expect(TimeText.short(Date(timeIntervalSince1970: .infinity), now: now) == "")
    }
}
