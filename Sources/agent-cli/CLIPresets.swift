import AgentCore
import Foundation

/// `--list-presets` and `--preset NAME`: the presets Preferences keeps, in the chat database.
enum CLIPresets {
    struct UnknownPreset: Error, LocalizedError {
        let name: String
        let names: [String]
        var errorDescription: String? {
            // TRANSLATORS: %1$s is a preset's name, %2$s the presets' names, comma-separated.
            tr("there is no preset “%1$s”; the presets are: %2$s", name, names.joined(separator: ", "))
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
        for preset in try store.presets() { StandardStreams.line("\(preset.name)\t\(preset.summary)") }
    }
}
