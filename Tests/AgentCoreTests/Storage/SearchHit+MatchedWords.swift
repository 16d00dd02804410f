import AgentCore

extension SearchHit {
    /// The words `matches` marks, as text.
    var matchedWords: [String] {
        let bytes = Array(snippet.utf8)
        return matches.map { String(decoding: bytes[$0], as: UTF8.self) }
    }
}
