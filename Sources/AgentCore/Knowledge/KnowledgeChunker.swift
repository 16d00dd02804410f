/// Cuts a file's text into passages of a few hundred words, overlapping a little so that a
/// fact on a boundary is whole in one of them. A PDF is cut page by page, so a passage
/// names its page. Works on UTF-8 bytes (words split at ASCII white space): a folder of
/// notes is a hundred megabytes of text.
enum KnowledgeChunker {
    static let wordsPerChunk = 200
    static let overlap = 40

    /// The passages of `text`, each with its page (nil for a file without pages).
    static func chunks(of text: String, page: Int? = nil) -> [(page: Int?, text: String)] {
        var text = text
        return text.withUTF8 { bytes in
            var starts: [Int] = []
            var ends: [Int] = []
            var inWord = false
            for index in 0..<bytes.count {
                let byte = bytes[index]
                let space = byte == 0x20 || byte == 0x0A || byte == 0x09 || byte == 0x0D || byte == 0x0C
                if space, inWord {
                    ends.append(index)
                    inWord = false
                } else if !space, !inWord {
                    starts.append(index)
                    inWord = true
                }
            }
            if inWord { ends.append(bytes.count) }
            var result: [(page: Int?, text: String)] = []
            var first = 0
            while first < starts.count {
                let last = min(starts.count, first + wordsPerChunk) - 1
                // The words as written, white space between them made single spaces.
                var chunk: [UInt8] = []
                chunk.reserveCapacity(ends[last] - starts[first])
                for word in first...last {
                    if word > first { chunk.append(0x20) }
                    chunk.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[starts[word]..<ends[word]]))
                }
                result.append((page, String(decoding: chunk, as: UTF8.self)))
                if last == starts.count - 1 { break }
                first = last + 1 - overlap
            }
            return result
        }
    }

    /// The passages of a PDF's pages (from 1).
    static func chunks(ofPages pages: [String]) -> [(page: Int?, text: String)] {
        pages.enumerated().flatMap { chunks(of: $0.element, page: $0.offset + 1) }
    }
}
