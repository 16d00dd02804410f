import CGLib
import FoundationEssentials

/// Content digests, through GLib's checksums.
enum Digest {
    /// SHA-256 of `data`, in lowercase hex.
    static func sha256(_ data: Data) -> String {
        data.withUnsafeBytes { buffer in
            guard let hex = g_compute_checksum_for_data(G_CHECKSUM_SHA256, buffer.bindMemory(to: UInt8.self).baseAddress,
                                                        gsize(buffer.count)) else { return "" }
            defer { g_free(hex) }
            return String(cString: hex)
        }
    }
}
