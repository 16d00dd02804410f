import CCurl

/// Why an HTTP exchange did not complete.
public enum TransportError: Error, Sendable, Equatable {
    /// The caller cancelled it.
    case cancelled
    /// libcurl gave up: `code` is its CURLcode, `message` its most specific explanation.
    case failed(code: Int, message: String)
    /// Nothing came or went for the request's idle timeout: the server or the network stalled.
    case stalled(seconds: Int)

    /// In words, for a log or an error that has no better ones.
    public var message: String {
        switch self {
        case .cancelled: "cancelled"
        case .failed(_, let message): message
        case .stalled(let seconds): trn("nothing came for %d second", "nothing came for %d seconds", seconds)
        }
    }

    /// What the user can act on, when libcurl's code says it.
    public enum Cause: Sendable, Equatable {
        /// The server's certificate is not one the system (or the CA file given) trusts, or
        /// the CA file given could not be read.
        case untrustedCertificate
        /// Nothing accepted the connection at that address and port.
        case refused
        /// The host name is not known.
        case unknownHost
    }

    public var cause: Cause? {
        guard case .failed(let code, _) = self else { return nil }
        return switch UInt32(clamping: code) {
        case CURLE_PEER_FAILED_VERIFICATION.rawValue, CURLE_SSL_ISSUER_ERROR.rawValue, CURLE_SSL_CACERT_BADFILE.rawValue: .untrustedCertificate
        case CURLE_COULDNT_CONNECT.rawValue: .refused
        case CURLE_COULDNT_RESOLVE_HOST.rawValue: .unknownHost
        default: nil
        }
    }

    /// The connection ended before the response was complete (the server closed or reset it).
    public var isPrematureEnd: Bool {
        guard case .failed(let code, _) = self else { return false }
        // CURLE_PARTIAL_FILE, CURLE_RECV_ERROR, CURLE_HTTP2_STREAM, CURLE_GOT_NOTHING
        return [18, 56, 92, 52].contains(code)
    }
}
