import CGtk
import Synchronization

/// Every warning and critical GLib logs in the test process (GTK's and libadwaita's
/// included), kept so a window test can fail on them; each is still printed as usual.
enum GLibWarnings {
    private static let logged = Mutex<[String]>([])

    static var count: Int { logged.withLock { $0.count } }

    static func messages(since start: Int) -> [String] {
        logged.withLock { Array($0.dropFirst(start)) }
    }

    static let writer: GLogWriterFunc = { level, fields, count, userData in
        if level.rawValue & (G_LOG_LEVEL_CRITICAL.rawValue | G_LOG_LEVEL_WARNING.rawValue) != 0, let fields {
            var domain = "", message = ""
            for field in UnsafeBufferPointer(start: fields, count: Int(count)) {
                guard let key = field.key, let value = field.value else { continue }
                let text = field.length < 0 ? String(cString: value.assumingMemoryBound(to: CChar.self))
                    : String(decoding: UnsafeRawBufferPointer(start: value, count: field.length), as: UTF8.self)
                switch String(cString: key) {
                case "GLIB_DOMAIN": domain = text
                case "MESSAGE": message = text
                default: break
                }
            }
            logged.withLock { $0.append("\(domain): \(message)") }
        }
        return g_log_writer_default(level, fields, count, userData)
    }
}
