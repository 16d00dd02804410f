import Glibc
import FoundationEssentials

extension AttachedFile {
    /// The largest file read at all; a text file this size is far past any context budget.
    public static let maximumBytes = 32_000_000

    /// Reads `url`: a text or code file in any encoding `TextDecoding` knows, a PDF's text
    /// layer page by page, or an image (PNG, JPEG, WebP, GIF's first frame) made ready to
    /// send. Anything else is refused, with the file named and the reason.
    public static func read(_ url: URL) throws(Refusal) -> AttachedFile {
        let name = url.lastPathComponent
        var info = stat()
        guard stat(url.path, &info) == 0 else {
            // TRANSLATORS: %1$s is a file's name, %2$s its full path.
            throw Refusal(description: tr("“%1$s” does not exist (%2$s)", name, url.path))
        }
        guard info.st_mode & S_IFMT != S_IFDIR else { throw Refusal(description: tr("“%s” is a folder, not a file", name)) }
        guard info.st_mode & S_IFMT == S_IFREG else { throw Refusal(description: tr("“%s” is not a regular file (a device or a pipe)", name)) }
        guard Int(info.st_size) <= maximumBytes else {
            // TRANSLATORS: %1$s is a file's name, %2$s its size, %3$s the largest size attached ("32 MB").
            throw Refusal(description: tr("“%1$s” is %2$s; files over %3$s are not attached",
                                          name, ByteCountText.describe(Int(info.st_size)), ByteCountText.describe(maximumBytes)))
        }
        let data: Data
        do {
            data = try Data(contentsOf: url, options: .mappedIfSafe)
        } catch {
            // TRANSLATORS: %1$s is a file's name, %2$s the system's reason.
            throw Refusal(description: tr("“%1$s” cannot be read: %2$s", name, String(describing: error)))
        }
        return try make(name: name, data: data)
    }

    /// The attachment `data` makes under `name`: a file's bytes, or a pasted image.
    public static func make(name: String, data: Data) throws(Refusal) -> AttachedFile {
        let bytes = [UInt8](data)
        if bytes.starts(with: Array("%PDF".utf8)) { return try pdf(name: name, data: data) }
        if let format = FileSignature.image(bytes) {
            let image = try ImageScaling.prepare(data, format: format, name: name)
            return AttachedFile(name: name, mediaType: image.mediaType, byteCount: data.count, data: image.data, text: nil)
        }
        if let kind = FileSignature.nonText(bytes) {
            // TRANSLATORS: %1$s is a file's name, %2$s what it is ("a ZIP archive").
            throw Refusal(description: tr("“%1$s” is %2$s; Agent attaches text, code, PDF files and images", name, kind))
        }
        guard let text = TextDecoding.decode(bytes) else {
            throw Refusal(description: tr("“%s” is not a text file (binary data); Agent attaches text, code, PDF files and images", name))
        }
        return AttachedFile(name: name, mediaType: "text/plain", byteCount: data.count, data: data, text: text)
    }

    /// A PDF's text, each page under its number; a PDF without a text layer (a scan) is
    /// refused — Agent does not read text out of images.
    private static func pdf(name: String, data: Data) throws(Refusal) -> AttachedFile {
        let pages: [String]
        switch PDFText.pages(of: data) {
        case .success(let read): pages = read
        case .failure(let refusal):
            // TRANSLATORS: %1$s is a file's name, %2$s the PDF library's reason.
            throw Refusal(description: tr("“%1$s” cannot be read as a PDF: %2$s", name, refusal.description))
        }
        guard pages.contains(where: { !$0.trimmed.isEmpty }) else {
            throw Refusal(description: tr("“%s” has no text layer (a scanned or image-only PDF); Agent does not read text out of images", name))
        }
        let text = pages.enumerated().map { PDFText.pageHeading($0.offset + 1) + "\n\($0.element.trimmed)" }.joined(separator: "\n\n")
        return AttachedFile(name: name, mediaType: "application/pdf", byteCount: data.count, data: data, text: text)
    }
}

/// What a file's first bytes say it is, for the kinds people attach that are not text.
enum FileSignature {
    enum ImageFormat: Sendable {
        case png, jpeg, gif, webp
    }

    static func image(_ bytes: [UInt8]) -> ImageFormat? {
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]) { return .png }
        if bytes.starts(with: [0xFF, 0xD8, 0xFF]) { return .jpeg }
        if bytes.starts(with: Array("GIF8".utf8)) { return .gif }
        if bytes.count >= 12, bytes.starts(with: Array("RIFF".utf8)), Array(bytes[8..<12]) == Array("WEBP".utf8) { return .webp }
        return nil
    }

    static func nonText(_ bytes: [UInt8]) -> String? {
        // What a refused file is, in "“name” is %s; Agent attaches text, code, PDF files and images".
        let signatures: [([UInt8], () -> String)] = [
            ([0x50, 0x4B, 0x03, 0x04], { tr("a ZIP archive (or an office document)") }), ([0x1F, 0x8B], { tr("a gzip archive") }),
            ([0x7F, 0x45, 0x4C, 0x46], { tr("a program (ELF)") }), (Array("BM".utf8), { tr("a BMP image") }),
            ([0x49, 0x49, 0x2A, 0x00], { tr("a TIFF image") }), ([0x4D, 0x4D, 0x00, 0x2A], { tr("a TIFF image") }),
        ]
        return signatures.first { bytes.starts(with: $0.0) }?.1()
    }
}
