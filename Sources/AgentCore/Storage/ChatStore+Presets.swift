import FoundationEssentials

/// Presets in the chat database (`presets`), in the order Preferences lists them.
extension ChatStore {
    private static let presetColumns = "id, name, system_prompt, model, model_place, temperature, max_tokens, tools_enabled, last_used"

    public func presets() throws -> [ChatPreset] {
        try run { database in
            try database.query("SELECT \(Self.presetColumns) FROM presets ORDER BY position, name").compactMap(Self.preset(from:))
        }
    }

    /// The preset named `name` (case ignored); nil when there is none.
    public func preset(named name: String) throws -> ChatPreset? {
        try presets().first { $0.name.lowercased() == name.lowercased() }
    }

    /// The preset a chat was last started from; nil when none ever was.
    public func lastUsedPreset() throws -> ChatPreset? {
        ChatPreset.lastUsed(in: try presets())
    }

    /// Adds `preset` at the end of the list, or changes it.
    public func savePreset(_ preset: ChatPreset) throws {
        try run { database in
            try database.query("""
                INSERT INTO presets (id, name, system_prompt, model, model_place, temperature, max_tokens, tools_enabled, last_used, position)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, (SELECT COALESCE(MAX(position) + 1, 0) FROM presets))
                ON CONFLICT(id) DO UPDATE SET name = excluded.name, system_prompt = excluded.system_prompt, model = excluded.model,
                    model_place = excluded.model_place, temperature = excluded.temperature, max_tokens = excluded.max_tokens,
                    tools_enabled = excluded.tools_enabled, last_used = excluded.last_used
                """, [.text(preset.id.uuidString), .text(preset.name), SQLiteValue(preset.systemPrompt), SQLiteValue(preset.model?.name),
                      SQLiteValue(preset.model?.place.rawValue), SQLiteValue(preset.temperature), SQLiteValue(preset.maxTokens),
                      .integer(preset.toolsEnabled ? 1 : 0), SQLiteValue(preset.lastUsed?.timeIntervalSince1970)])
        }
    }

    public func deletePreset(_ id: UUID) throws {
        try run { try $0.query("DELETE FROM presets WHERE id = ?", [.text(id.uuidString)]) }
    }

    /// Marks `id` as the preset a chat was just started from.
    public func markPresetUsed(_ id: UUID, at date: Date = Date()) throws {
        try run { try $0.query("UPDATE presets SET last_used = ? WHERE id = ?", [.real(date.timeIntervalSince1970), .text(id.uuidString)]) }
    }

    private static func preset(from row: [SQLiteValue]) -> ChatPreset? {
        guard let id = row[0].text.flatMap(UUID.init(uuidString:)), let name = row[1].text else { return nil }
        return ChatPreset(id: id, name: name, systemPrompt: row[2].text,
                          model: row[3].text.map { ModelChoice(name: $0, place: row[4].text.flatMap(ModelChoice.Place.init) ?? .server) },
                          temperature: row[5].real, maxTokens: row[6].integer.map(Int.init), toolsEnabled: row[7].integer != 0,
                          lastUsed: row[8].real.map(Date.init(timeIntervalSince1970:)))
    }
}
