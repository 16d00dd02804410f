import AgentCore

/// A question and settings that keep the test model (SmolLM2-135M, greedy) writing for many
/// seconds, so that a test which kills llama-server on seeing the first words still kills it
/// mid-reply when those words reach the test late, on a loaded machine.
public enum LongLocalReply {
    public static let prompt = "Write the numbers from 1 to 500, separated by commas."
    public static let maxTokens = 1000
    public static let options = GenerationOptions(temperature: 0, seed: 1, maxTokens: maxTokens)
    /// The same, as `agent-cli` arguments.
    public static let cliArguments = ["--temperature", "0", "--seed", "1", "--max-tokens", String(maxTokens), prompt]
}
