import CGLib
import Glibc

/// NULL-terminated arrays of C strings, as GLib and GTK pass string lists.
public enum CStringArray {
    /// `strings` as a `const char * const *`, alive for the duration of `body`.
    public static func with<Result>(_ strings: [String], _ body: (UnsafePointer<UnsafePointer<CChar>?>?) -> Result) -> Result {
        var pointers = strings.map { strdup($0) }
        pointers.append(nil)
        defer { pointers.forEach { free($0) } }
        return pointers.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: UnsafePointer<CChar>?.self) { body($0.baseAddress) }
        }
    }

    /// The strings of a GLib-allocated `strv`, which is freed (`g_strfreev`); empty for NULL.
    public static func take(_ strv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> [String] {
        guard let strv else { return [] }
        defer { g_strfreev(strv) }
        var result: [String] = []
        var index = 0
        while let value = strv[index] {
            result.append(String(cString: value))
            index += 1
        }
        return result
    }
}
