extension ChatError {
    /// Whether the server refused the request because it has no such model: Ollama's 404
    /// "model 'x' not found", OpenAI's and vLLM's 404 "The model `x` does not exist".
    public var saysModelIsMissing: Bool {
        guard case .http(let status, _, _, let message, _) = self else { return false }
        let words = message.lowercased()
        guard words.contains("model") else { return false }
        return status == 404 || (status == 400 && (words.contains("not found") || words.contains("does not exist")))
    }
}
