import FoundationEssentials

/// A file sent with a user message, as it is kept and sent: the text of a text, code or PDF
/// file, or an image ready for a vision model. Identified by the digest of its bytes, so the
/// same file sent twice is stored once.
public struct AttachedFile: Sendable, Equatable, Identifiable {
    public enum Kind: String, Sendable {
        case text, image
    }

    /// The file's name as the model and the user see it.
    public let name: String
    /// `text/plain`, `application/pdf`, `image/png` or `image/jpeg`.
    public let mediaType: String
    /// The size of the file the user chose.
    public let byteCount: Int
    /// The bytes kept: the file itself, or for an image, the image as sent (scaled down).
    public let data: Data
    /// The text the model reads (a PDF's page by page); nil for an image.
    public let text: String?
    /// SHA-256 of `data`, in hex.
    public let digest: String

    public var id: String { digest }
    public var kind: Kind { text == nil ? .image : .text }

    public init(name: String, mediaType: String, byteCount: Int, data: Data, text: String?, digest: String? = nil) {
        self.name = name
        self.mediaType = mediaType
        self.byteCount = byteCount
        self.data = data
        self.text = text
        self.digest = digest ?? Digest.sha256(data)
    }

    /// Why a file cannot be attached, naming it.
    public struct Refusal: Error, Sendable, Equatable, CustomStringConvertible {
        public let description: String

        public init(description: String) {
            self.description = description
        }
    }

    /// The image as a `data:` URI, for OpenAI's `image_url`.
    public var dataURI: String { "data:\(mediaType);base64,\(data.base64EncodedString())" }
}
