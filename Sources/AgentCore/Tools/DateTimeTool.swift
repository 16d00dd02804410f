import Foundation

/// `get_datetime`: the current local date, time and time zone.
public struct DateTimeTool: Tool {
    private let now: @Sendable () -> Date
    private let timeZone: TimeZone

    public init(now: @escaping @Sendable () -> Date = { Date() }, timeZone: TimeZone = .current) {
        self.now = now
        self.timeZone = timeZone
    }

    public var definition: ToolDefinition {
        ToolDefinition(name: "get_datetime", description: "Get the current local date, time and time zone of the user")
    }

    public func run(_ arguments: JSONValue) async throws -> String {
        let date = now()
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second, .weekday], from: date)
        // English names whatever the locale: the text is for the model, not the user's UI.
        let weekdays = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"]
        let weekday = weekdays[((parts.weekday ?? 1) - 1 + 7) % 7]
        let offset = timeZone.secondsFromGMT(for: date)
        let sign = offset < 0 ? "-" : "+"
        let utc = String(format: "UTC%@%02d:%02d", sign, abs(offset) / 3600, abs(offset) % 3600 / 60)
        return String(format: "date: %04d-%02d-%02d (%@), time: %02d:%02d:%02d, time zone: %@ (%@)",
                      parts.year ?? 0, parts.month ?? 0, parts.day ?? 0, weekday,
                      parts.hour ?? 0, parts.minute ?? 0, parts.second ?? 0, timeZone.identifier, utc)
    }
}
