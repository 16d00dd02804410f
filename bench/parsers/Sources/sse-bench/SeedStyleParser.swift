import Foundation

/// The seed's stream reading (llmPrompt-SwiftUI, `collectCompletion`), kept as written:
/// characters one at a time from an async sequence, lines built in a String, each `data:`
/// line decoded with JSONDecoder into Codable structs.
struct SeedStyleParser {
    struct OpenAIResponse: Decodable {
        struct Choice: Decodable {
            struct Delta: Decodable { let content: String? }
            let delta: Delta
        }
        let model: String?
        let choices: [Choice]
    }

    /// The bytes as an async sequence of characters, as `URLSession.AsyncBytes.characters`.
    struct Characters: AsyncSequence {
        typealias Element = Character
        let chunks: [[UInt8]]

        struct AsyncIterator: AsyncIteratorProtocol {
            var chunks: IndexingIterator<[[UInt8]]>
            var scalars = String.UnicodeScalarView().makeIterator()
            var decoder = UTF8()
            var bytes = [UInt8]().makeIterator()

            mutating func next() async -> Character? {
                while true {
                    switch decoder.decode(&bytes) {
                    case .scalarValue(let scalar): return Character(scalar)
                    case .error: return "\u{FFFD}"
                    case .emptyInput:
                        guard let chunk = chunks.next() else { return nil }
                        bytes = chunk.makeIterator()
                    }
                }
            }
        }

        func makeAsyncIterator() -> AsyncIterator { AsyncIterator(chunks: chunks.makeIterator()) }
    }

    /// Returns the reply's text.
    static func collect(_ chunks: [[UInt8]]) async -> String {
        let decoder = JSONDecoder()
        var content = ""
        var line = ""
        for await char in Characters(chunks: chunks) {
            if char != "\n" && char != "\r\n" {
                line.append(char)
                continue
            }
            if line.isEmpty { continue }
            let parts = line.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
            line = ""
            guard parts.count == 2 else { continue }
            let tagline = parts[1].trimmingCharacters(in: .whitespaces)
            guard parts[0] == "data", !tagline.isEmpty, tagline != "[DONE]" else { continue }
            if let response = try? decoder.decode(OpenAIResponse.self, from: Data(tagline.utf8)),
               let token = response.choices.first?.delta.content, !token.isEmpty {
                content.append(token)
            }
        }
        return content
    }
}
