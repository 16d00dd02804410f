import CGLib
import CPixbuf
import FoundationEssentials

/// Images made ready for a vision model: decoded (GIF's first frame), scaled down to at
/// most `longestSide` pixels on the long side, and sent as PNG or JPEG — what every
/// OpenAI-compatible server and Ollama take. An image already small enough in PNG or JPEG
/// is sent as it is.
enum ImageScaling {
    static let longestSide = 2048

    static func prepare(_ data: Data, format: FileSignature.ImageFormat, name: String) throws(AttachedFile.Refusal) -> (mediaType: String, data: Data) {
        var message: UnsafeMutablePointer<CChar>?
        let decoded = data.withUnsafeBytes { agent_image_decode($0.baseAddress, gsize($0.count), &message) }
        guard let pixbuf = decoded else {
            let reason = message.map { String(cString: $0) } ?? "it could not be decoded"
            g_free(message)
            throw AttachedFile.Refusal(description: "“\(name)” cannot be read as an image: \(reason)")
        }
        defer { g_object_unref(pixbuf) }
        let width = Int(agent_image_width(pixbuf)), height = Int(agent_image_height(pixbuf))
        let scale = min(1, Double(longestSide) / Double(max(width, height, 1)))
        if scale == 1, format == .png { return ("image/png", data) }
        if scale == 1, format == .jpeg { return ("image/jpeg", data) }
        var source = pixbuf
        if scale < 1 {
            let size = (max(1, Int((Double(width) * scale).rounded())), max(1, Int((Double(height) * scale).rounded())))
            guard let scaled = agent_image_scaled(pixbuf, Int32(size.0), Int32(size.1)) else {
                throw AttachedFile.Refusal(description: "“\(name)” is too large to scale down (\(width) × \(height))")
            }
            source = scaled
        }
        defer { if source != pixbuf { g_object_unref(source) } }
        let type = format == .jpeg ? "jpeg" : "png"
        var buffer: UnsafeMutablePointer<CChar>?
        var size = 0
        guard agent_image_encode(source, type, &buffer, &size, &message) != 0, let buffer else {
            let reason = message.map { String(cString: $0) } ?? "it could not be encoded"
            g_free(message)
            throw AttachedFile.Refusal(description: "“\(name)” could not be prepared: \(reason)")
        }
        defer { g_free(buffer) }
        return ("image/\(type)", Data(bytes: buffer, count: size))
    }
}
