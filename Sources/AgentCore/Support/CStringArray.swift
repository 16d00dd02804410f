import Glibc

/// A NULL-terminated array of C strings, as GLib and GTK take string lists
/// (`const char * const *`), alive for the duration of `body`.
public enum CStringArray {
    public static func with<Result>(_ strings: [String], _ body: (UnsafePointer<UnsafePointer<CChar>?>?) -> Result) -> Result {
        var pointers = strings.map { strdup($0) }
        pointers.append(nil)
        defer { pointers.forEach { free($0) } }
        return pointers.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: UnsafePointer<CChar>?.self) { body($0.baseAddress) }
        }
    }
}
