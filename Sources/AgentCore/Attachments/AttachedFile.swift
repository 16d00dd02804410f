import Glibc
import FoundationEssentials

/// A file the user attached to a message, read and checked before anything is sent.
public struct AttachedFile: Sendable, Equatable {
    /// The file's name as the model and the user see it.
    public let name: String
    public let byteCount: Int
    /// Its text, decoded.
    public let text: String

    /// Why a file cannot be attached, naming it.
    public struct Refusal: Error, Sendable, Equatable, CustomStringConvertible {
        public let description: String

        public init(description: String) {
            self.description = description
        }
    }

    /// The largest file read at all; a text file this size is far past any context budget.
    public static let maximumBytes = 32 << 20

    public init(name: String, byteCount: Int, text: String) {
        self.name = name
        self.byteCount = byteCount
        self.text = text
    }

    /// Reads `url`: a text or code file in any encoding `TextDecoding` knows, or a PDF's
    /// text layer, page by page. Anything else is refused, with the file named and the reason.
    public static func read(_ url: URL) throws(Refusal) -> AttachedFile {
        let name = url.lastPathComponent
        var info = stat()
        guard stat(url.path, &info) == 0 else {
            throw Refusal(description: "“\(name)” does not exist (\(url.path))")
        }
        guard info.st_mode & S_IFMT != S_IFDIR else { throw Refusal(description: "“\(name)” is a folder, not a file") }
        guard Int(info.st_size) <= maximumBytes else {
            throw Refusal(description: "“\(name)” is \(ByteCountText.describe(Int(info.st_size))); files over \(ByteCountText.describe(maximumBytes)) are not attached")
        }
        let data: Data
        do {
            data = try Data(contentsOf: url, options: .mappedIfSafe)
        } catch {
            throw Refusal(description: "“\(name)” cannot be read: \(error)")
        }
        let bytes = [UInt8](data)
        if bytes.starts(with: Array("%PDF".utf8)) { return try pdf(url, byteCount: data.count) }
        if let kind = FileSignature.nonText(bytes) {
            throw Refusal(description: "“\(name)” is \(kind); Agent attaches text and code files")
        }
        guard let text = TextDecoding.decode(bytes) else {
            throw Refusal(description: "“\(name)” is not a text file (binary data); Agent attaches text and code files")
        }
        return AttachedFile(name: name, byteCount: data.count, text: text)
    }

    /// A PDF's text, each page under its number; a PDF without a text layer (a scan) is
    /// refused — Agent does not read text out of images.
    private static func pdf(_ url: URL, byteCount: Int) throws(Refusal) -> AttachedFile {
        let name = url.lastPathComponent
        let pages: [String]
        switch PDFText.pages(of: url.path) {
        case .success(let read): pages = read
        case .failure(let refusal): throw Refusal(description: "“\(name)” cannot be read as a PDF: \(refusal.description)")
        }
        guard pages.contains(where: { !$0.trimmed.isEmpty }) else {
            throw Refusal(description: "“\(name)” has no text layer (a scanned or image-only PDF); Agent does not read text out of images")
        }
        let text = pages.enumerated().map { "--- Page \($0.offset + 1) ---\n\($0.element.trimmed)" }.joined(separator: "\n\n")
        return AttachedFile(name: name, byteCount: byteCount, text: text)
    }
}

/// What a file's first bytes say it is, for the kinds people attach that are not text.
enum FileSignature {
    static func nonText(_ bytes: [UInt8]) -> String? {
        let signatures: [([UInt8], String)] = [
            ([0x89, 0x50, 0x4E, 0x47], "a PNG image"), ([0xFF, 0xD8, 0xFF], "a JPEG image"),
            (Array("GIF8".utf8), "a GIF image"), ([0x50, 0x4B, 0x03, 0x04], "a ZIP archive (or an office document)"),
            ([0x1F, 0x8B], "a gzip archive"), ([0x7F, 0x45, 0x4C, 0x46], "a program (ELF)"),
        ]
        if bytes.count >= 12, bytes.starts(with: Array("RIFF".utf8)), Array(bytes[8..<12]) == Array("WEBP".utf8) { return "a WebP image" }
        return signatures.first { bytes.starts(with: $0.0) }?.1
    }
}
