import AgentCore
import CGtk
import FoundationEssentials

/// How a time reads in the window, formatted by GLib for the user's locale and time zone in
/// the order its translation gives: the time alone for today, the day and time otherwise.
enum TimeText {
    static func short(_ date: Date, now: Date = Date()) -> String {
        let seconds = date.timeIntervalSince1970
        guard seconds.isFinite, abs(seconds) < 1e12, let time = g_date_time_new_from_unix_local(Int(seconds)),
              let today = g_date_time_new_from_unix_local(Int(now.timeIntervalSince1970)) else { return "" }
        defer {
            g_date_time_unref(time)
            g_date_time_unref(today)
        }
        let sameDay = g_date_time_get_year(time) == g_date_time_get_year(today)
            && g_date_time_get_day_of_year(time) == g_date_time_get_day_of_year(today)
        // TRANSLATORS: a message's time today, as g_date_time_format writes it: %H:%M, or %l:%M %p for a 12-hour clock.
        let timeToday = tr("%H:%M")
        // TRANSLATORS: a message's day and time, as g_date_time_format writes it: %e day, %b month, %Y year.
        let dayAndTime = tr("%e %b %Y, %H:%M")
        guard let text = g_date_time_format(time, sameDay ? timeToday : dayAndTime) else { return "" }
        defer { g_free(text) }
        return String(cString: text).trimmed
    }
}
