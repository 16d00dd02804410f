import FoundationEssentials

/// `get_datetime`: the current local date, time and time zone.
public struct DateTimeTool: Tool {
    private let now: @Sendable () -> Date
    /// nil: the system's zone, looked up when the tool runs (not at start-up, where it
    /// would load the time-zone database for nothing).
    private let fixedTimeZone: TimeZone?

    public init(now: @escaping @Sendable () -> Date = { Date() }, timeZone: TimeZone? = nil) {
        self.now = now
        fixedTimeZone = timeZone
    }

    public static let name = "get_datetime"

    public var definition: ToolDefinition {
        ToolDefinition(name: Self.name, description: "Get the current local date, time and time zone of the user")
    }

    public func run(_ arguments: JSONValue) async throws -> String {
        let date = now()
        let timeZone = fixedTimeZone ?? .current
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second, .weekday], from: date)
        // English names whatever the locale: the text is for the model, not the user's UI.
        let weekdays = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"]
        let weekday = weekdays[((parts.weekday ?? 1) - 1 + 7) % 7]
        let offset = timeZone.secondsFromGMT(for: date)
        let utc = "UTC" + (offset < 0 ? "-" : "+") + Self.two(abs(offset) / 3600) + ":" + Self.two(abs(offset) % 3600 / 60)
        let day = "\(parts.year ?? 0)-\(Self.two(parts.month ?? 0))-\(Self.two(parts.day ?? 0))"
        let time = "\(Self.two(parts.hour ?? 0)):\(Self.two(parts.minute ?? 0)):\(Self.two(parts.second ?? 0))"
        return "date: \(day) (\(weekday)), time: \(time), time zone: \(timeZone.identifier) (\(utc))"
    }

    private static func two(_ number: Int) -> String {
        number < 10 ? "0\(number)" : String(number)
    }
}
