/// The text of the last chunk read whole, around its content: a server such as llama-server
/// sends every token's chunk alike but for that string (the same id, model, time and choice),
/// so a chunk whose bytes are this text with another string in that place is that chunk with
/// another content, read by comparing bytes and decoding one string instead of reading every
/// member again. Anything else (another id, a reasoning or tool-call chunk, a server that
/// varies another member per chunk) is read whole and, if it has a content string, becomes
/// the template.
struct ChatCompletionChunkTemplate {
    /// The chunk's bytes up to its content string's opening quote, and after its closing one.
    private var prefix: [UInt8] = []
    private var suffix: [UInt8] = []
    private var chunk: ChatCompletionChunk?

    /// The chunk in `bytes`: from the template when they fit it, else read whole (and kept
    /// as the template when it can be one); nil when they are JSON but not an object.
    mutating func chunk(in bytes: [UInt8]) throws(JSONParser.SyntaxError) -> ChatCompletionChunk? {
        if let chunk, let found = content(in: bytes) { return chunk.replacingContent(with: found.text, readFrom: found.range) }
        let read = try ChatCompletionChunk(json: bytes)
        remember(read, from: bytes)
        return read
    }

    /// The content string in `bytes`, and where it lies, when everything around it is the
    /// template's; nil when the template does not fit them.
    func content(in bytes: [UInt8]) -> (text: String, range: Range<Int>)? {
        bytes.withUnsafeBufferPointer { buffer -> (text: String, range: Range<Int>)? in
            guard ByteSearch.bytes(buffer, at: 0, equal: prefix), buffer.count > prefix.count,
                  buffer[prefix.count] == UInt8(ascii: "\"") else { return nil }
            var parser = JSONParser(buffer)
            parser.index = prefix.count
            guard let content = try? parser.parseString(), buffer.count - parser.index == suffix.count,
                  ByteSearch.bytes(buffer, at: parser.index, equal: suffix) else { return nil }
            return (content, prefix.count..<parser.index)
        }
    }

    /// Keeps `read` as the template when its content is a string; otherwise the template
    /// stays as it was (a usage or finishing chunk between tokens does not end it).
    private mutating func remember(_ read: ChatCompletionChunk?, from bytes: [UInt8]) {
        guard let read, let range = read.contentRange else { return }
        prefix.removeAll(keepingCapacity: true)
        prefix.append(contentsOf: bytes[..<range.lowerBound])
        suffix.removeAll(keepingCapacity: true)
        suffix.append(contentsOf: bytes[range.upperBound...])
        chunk = read
    }
}
