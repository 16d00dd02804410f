import CGLib
import CPixbuf
import FoundationEssentials

/// Images made ready for a vision model: decoded (GIF's first frame) already scaled down
/// to at most `longestSide` pixels on the long side, and sent as PNG or JPEG — what every
/// OpenAI-compatible server and Ollama take. An image already small enough in PNG or JPEG
/// is sent as it is; one over 100 megapixels is refused before it is decoded.
enum ImageScaling {
    static let longestSide = 2048
    /// Images with more pixels than this are refused before they are decoded.
    static let maximumPixels = 100_000_000

    static func prepare(_ data: Data, format: FileSignature.ImageFormat, name: String) throws(AttachedFile.Refusal) -> (mediaType: String, data: Data) {
        if let size = ImageHeader.size(of: [UInt8](data.prefix(64 << 10)), format: format), size.width * size.height > maximumPixels {
            // TRANSLATORS: %1$s is a file's name, %2$s and %3$s its width and height in pixels.
            throw AttachedFile.Refusal(description: tr("“%1$s” is %2$s × %3$s pixels; images over 100 megapixels are not attached",
                                                       name, UserLocale.number(size.width), UserLocale.number(size.height)))
        }
        var message: UnsafeMutablePointer<CChar>?
        var width: Int32 = 0, height: Int32 = 0
        let decoded = data.withUnsafeBytes {
            agent_image_decode($0.baseAddress, gsize($0.count), Int32(longestSide), &width, &height, &message)
        }
        guard let pixbuf = decoded else {
            let reason = message.map { String(cString: $0) } ?? tr("it could not be decoded")
            g_free(message)
            // TRANSLATORS: %1$s is a file's name, %2$s the image library's reason.
            throw AttachedFile.Refusal(description: tr("“%1$s” cannot be read as an image: %2$s", name, reason))
        }
        defer { g_object_unref(pixbuf) }
        let fits = max(width, height) <= longestSide
        if fits, format == .png { return ("image/png", data) }
        if fits, format == .jpeg { return ("image/jpeg", data) }
        let type = format == .jpeg ? "jpeg" : "png"
        var buffer: UnsafeMutablePointer<CChar>?
        var size = 0
        guard agent_image_encode(pixbuf, type, &buffer, &size, &message) != 0, let buffer else {
            let reason = message.map { String(cString: $0) } ?? tr("it could not be encoded")
            g_free(message)
            // TRANSLATORS: %1$s is an image file's name, %2$s the image library's reason.
            throw AttachedFile.Refusal(description: tr("“%1$s” could not be prepared: %2$s", name, reason))
        }
        defer { g_free(buffer) }
        return ("image/\(type)", Data(bytes: buffer, count: size))
    }
}
