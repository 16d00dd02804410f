import Foundation

/// How a message's time reads in the transcript: the local time for today, with the
/// date for older messages.
public enum MessageTimeFormat {
    public static func short(_ date: Date, now: Date = Date(), calendar: Calendar = .current) -> String {
        if calendar.isDate(date, inSameDayAs: now) {
            return date.formatted(date: .omitted, time: .shortened)
        }
        return date.formatted(date: .abbreviated, time: .shortened)
    }
}
