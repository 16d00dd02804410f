import FoundationEssentials

/// What a knowledge folder's file says, for the index: text, code and Markdown in any
/// encoding `TextDecoding` knows, and a PDF's text page by page. Images, archives, programs
/// and files too large to be notes are left out.
enum KnowledgeFileReader {
    /// Files larger than this are not indexed (a log of gigabytes is not a note): the
    /// largest file Agent reads at all, as an attachment too.
    static let maximumBytes = AttachedFile.maximumBytes

    static let skippedExtensions: Set<String> = [
        "png", "jpg", "jpeg", "gif", "webp", "bmp", "tif", "tiff", "ico", "svgz", "zip", "gz", "xz", "bz2", "zst", "7z",
        "tar", "rar", "iso", "img", "so", "o", "a", "bin", "exe", "dll", "class", "jar", "pyc", "mp3", "mp4", "mkv",
        "webm", "ogg", "flac", "wav", "avi", "mov", "sqlite", "db", "woff", "woff2", "ttf", "otf", "gguf",
    ]

    /// The passages of the file at `url`, or nil when it is not a file Agent indexes.
    static func chunks(of url: URL, size: Int) -> [(page: Int?, text: String)]? {
        guard size <= maximumBytes, !skippedExtensions.contains(url.pathExtension.lowercased()),
              let bytes = FileDescriptorReading.contents(of: url.path, atMost: maximumBytes) else { return nil }
        if bytes.starts(with: Array("%PDF".utf8)) {
            guard case .success(let pages) = PDFText.pages(of: Data(bytes)) else { return nil }
            return KnowledgeChunker.chunks(ofPages: pages)
        }
        guard FileSignature.image(bytes) == nil, FileSignature.nonText(bytes) == nil, let text = TextDecoding.decode(bytes) else {
            return nil
        }
        return KnowledgeChunker.chunks(of: text)
    }
}
