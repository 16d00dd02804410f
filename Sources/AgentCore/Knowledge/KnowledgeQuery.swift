/// A question made into FTS5 queries: its words, less the ones every text has, any of
/// which may match (BM25 ranks passages with more and rarer ones first).
enum KnowledgeQuery {
    /// The question's words worth searching for, each quoted as an FTS5 phrase.
    static func terms(of question: String) -> [String] {
        var seen = Set<String>()
        let words = question.lowercased().split { !$0.isLetter && !$0.isNumber }.map(String.init).filter { word in
            word.count > 1 && !stopWords.contains(word) && seen.insert(word).inserted
        }
        return words.prefix(32).map { "\"\($0)\"" }
    }

    /// `terms` as one query any of them matches.
    static func match(_ terms: [String]) -> String? {
        terms.isEmpty ? nil : terms.joined(separator: " OR ")
    }

    static let stopWords: Set<String> = [
        "a", "about", "after", "all", "also", "an", "and", "any", "are", "as", "at", "be", "been", "but", "by", "can",
        "could", "did", "do", "does", "for", "from", "had", "has", "have", "how", "i", "if", "in", "into", "is", "it",
        "its", "me", "my", "no", "not", "of", "on", "or", "our", "please", "should", "so", "tell", "that", "the",
        "their", "them", "then", "there", "these", "they", "this", "those", "to", "was", "we", "were", "what", "when",
        "where", "which", "who", "why", "will", "with", "would", "you", "your",
    ]
}
