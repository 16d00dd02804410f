import AgentCore
import Foundation

/// `--list-presets` and `--preset NAME`: the presets Preferences keeps, in the chat database.
enum CLIPresets {
    struct UnknownPreset: Error, LocalizedError {
        let name: String
        let names: [String]
        var errorDescription: String? {
            "there is no preset “\(name)”; the presets are: \(names.joined(separator: ", "))"
        }
    }

    /// The preset named `name` (case ignored).
    static func named(_ name: String, in store: ChatStore) throws -> ChatPreset {
        let presets = try store.presets()
        guard let preset = presets.first(where: { $0.name.lowercased() == name.lowercased() }) else {
            throw UnknownPreset(name: name, names: presets.map(\.name))
        }
        return preset
    }

    /// NAME<TAB>summary, one preset a line, in Preferences' order.
    static func list(_ store: ChatStore) throws {
        for preset in try store.presets() { print("\(preset.name)\t\(summary(of: preset))") }
    }

    /// What a preset sets, shortly: "temperature 0.3, no tools, “You translate. Reply with …”".
    static func summary(of preset: ChatPreset) -> String {
        var parts: [String] = []
        if let model = preset.model { parts.append("model \(model.name)") }
        if let temperature = preset.temperature { parts.append("temperature \(ChatSettings.format(temperature))") }
        if let maxTokens = preset.maxTokens { parts.append("at most \(maxTokens) tokens") }
        parts.append(preset.toolsEnabled ? "tools" : "no tools")
        if let prompt = preset.systemPrompt {
            parts.append(prompt.isEmpty ? "no system prompt" : "“\(firstWords(of: prompt))”")
        } else {
            parts.append("the system prompt of Preferences")
        }
        return parts.joined(separator: ", ")
    }

    private static func firstWords(of text: String, count: Int = 8) -> String {
        let words = text.split(whereSeparator: \.isWhitespace)
        return words.prefix(count).joined(separator: " ") + (words.count > count ? " …" : "")
    }
}
