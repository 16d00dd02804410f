import AgentCore
import CGtk

/// The rows that edit a chat's settings — model, temperature, longest reply, tools, system
/// prompt — and, for a preset, its name: one form for the chat-settings panel and the preset
/// editor in Preferences. It edits a copy; `settings` reads what the rows hold.
@MainActor
final class ChatSettingsForm {
    /// The model rows offer: nil is the default connection's, with the title shown for each.
    typealias ModelOption = (choice: ModelChoice?, title: String)

    /// An `AdwPreferencesPage` holding the groups (it scrolls and keeps the rows narrow enough to read).
    let widget: UnsafeMutablePointer<GtkWidget>
    /// The preset's name; nil when the form edits a chat.
    let nameRow: UnsafeMutablePointer<GtkWidget>?
    let modelRow: UnsafeMutablePointer<GtkWidget>
    /// Expander rows whose switch says whether the chat sets its own value.
    let temperatureRow: UnsafeMutablePointer<GtkWidget>
    let temperature: UnsafeMutablePointer<GtkWidget>
    let maxTokensRow: UnsafeMutablePointer<GtkWidget>
    let maxTokens: UnsafeMutablePointer<GtkWidget>
    let tools: UnsafeMutablePointer<GtkWidget>
    let systemPrompt: UnsafeMutablePointer<GtkWidget>
    private var models: [ModelOption]
    /// Told when the name changes (the preset editor's Save waits for one).
    var onNameChanged: (() -> Void)?

    /// `name`: the preset's, or nil for a chat's settings. `promptNote` says what an empty prompt
    /// means. `fallback`: what a switched-on temperature and length start from (Preferences').
    init(_ settings: ChatSettings, models offered: [ModelOption], name: String?, promptNote: String,
         fallback: GenerationOptions = GenerationOptions()) {
        widget = adw_preferences_page_new()
        if let name {
            let group = PreferenceRows.group(in: widget, title: nil)
            let row: UnsafeMutablePointer<GtkWidget> = adw_entry_row_new()
            adw_preferences_row_set_title(row.cast(), tr("Name"))
            gtk_editable_set_text(row.opaque, name)
            adw_entry_row_set_activates_default(row.cast(), 1)
            adw_preferences_group_add(group.cast(), row)
            nameRow = row
        } else {
            nameRow = nil
        }

        let replies = PreferenceRows.group(in: widget, title: tr("Replies"))
        models = []
        modelRow = adw_combo_row_new()
        adw_preferences_row_set_title(modelRow.cast(), tr("Model"))
        adw_preferences_group_add(replies.cast(), modelRow)

        (temperatureRow, temperature) = Self.optionalNumber(title: tr("Own Temperature"), subtitle: tr("Off: as in Preferences"),
                                                            spinTitle: tr("Temperature"), subtitleOfSpin: tr("Lower is more focused, higher more varied."),
                                                            range: 0...2, step: 0.1, digits: Self.digits(of: settings.temperature), value: settings.temperature,
                                                            fallback: fallback.temperature ?? 0.7)
        adw_preferences_group_add(replies.cast(), temperatureRow)
        (maxTokensRow, maxTokens) = Self.optionalNumber(title: tr("Own Reply Length"), subtitle: tr("Off: as in Preferences"),
                                                        spinTitle: tr("Longest Reply"), subtitleOfSpin: tr("In tokens."),
                                                        range: 1...1_048_576, step: 64, digits: 0,
                                                        value: settings.maxTokens.map(Double.init), fallback: Double(fallback.maxTokens ?? 1024))
        adw_preferences_group_add(replies.cast(), maxTokensRow)

        tools = gtk_switch_new()
        gtk_switch_set_active(tools.opaque, settings.toolsEnabled ? 1 : 0)
        adw_preferences_group_add(replies.cast(), PreferenceRows.actionRow(title: tr("Offer Tools"),
                                                                           subtitle: tr("Agent’s own and the MCP servers’, each call asked first"),
                                                                           suffix: tools))

        let prompt = PreferenceRows.group(in: widget, title: tr("System Prompt"), description: promptNote)
        let area = PreferenceRows.textArea(settings.systemPrompt, label: tr("System prompt"), height: 160)
        systemPrompt = area.view
        GtkText.addClasses(systemPrompt, "system-prompt")
        adw_preferences_group_add(prompt.cast(), area.card)

        if let nameRow { Signals.connect(nameRow.raw, "changed") { [weak self] in self?.onNameChanged?() } }
        offer(offered, choosing: settings.model)
    }

    /// Lists `offered` in the Model row (the server's models may arrive after the form
    /// opened), keeping `choice` chosen — added to the list when the server does not list it.
    func offer(_ offered: [ModelOption], choosing choice: ModelChoice?) {
        var options = offered
        if let choice, !options.contains(where: { $0.choice == choice }) { options.append((choice, choice.name)) }
        guard options.map(\.title) != models.map(\.title) else { return }
        models = options
        let list = StringLists.make(options.map(\.title))
        adw_combo_row_set_model(modelRow.cast(), list)
        g_object_unref(UnsafeMutableRawPointer(list))
        adw_combo_row_set_selected(modelRow.cast(), guint(options.firstIndex { $0.choice == choice } ?? 0))
    }

    /// The model chosen in the Model row (nil: the default).
    var chosenModel: ModelChoice? {
        let index = Int(adw_combo_row_get_selected(modelRow.cast()))
        return models.indices.contains(index) ? models[index].choice : nil
    }

    /// The preset's name as typed, trimmed.
    var name: String {
        nameRow.map { PreferenceRows.text(of: $0).trimmed } ?? ""
    }

    /// What the rows hold.
    var settings: ChatSettings {
        ChatSettings(systemPrompt: GtkText.contents(of: gtk_text_view_get_buffer(systemPrompt.cast())), model: chosenModel,
                            temperature: Self.value(of: temperatureRow, temperature).map { ($0 * 100).rounded() / 100 },
                            maxTokens: Self.value(of: maxTokensRow, maxTokens).map { Int($0) },
                            toolsEnabled: gtk_switch_get_active(tools.opaque) != 0)
    }

    /// An expander row with a switch (off: the value of Preferences) holding a spin row.
    private static func optionalNumber(title: String, subtitle: String, spinTitle: String, subtitleOfSpin: String,
                                       range: ClosedRange<Double>, step: Double, digits: UInt32, value: Double?,
                                       fallback: Double) -> (UnsafeMutablePointer<GtkWidget>, UnsafeMutablePointer<GtkWidget>) {
        let expander: UnsafeMutablePointer<GtkWidget> = adw_expander_row_new()
        adw_preferences_row_set_title(expander.cast(), title)
        adw_expander_row_set_subtitle(expander.cast(), subtitle)
        adw_expander_row_set_show_enable_switch(expander.cast(), 1)
        adw_expander_row_set_enable_expansion(expander.cast(), value == nil ? 0 : 1)
        adw_expander_row_set_expanded(expander.cast(), value == nil ? 0 : 1)
        let spin: UnsafeMutablePointer<GtkWidget> = gtk_spin_button_new_with_range(range.lowerBound, range.upperBound, step)
        gtk_spin_button_set_digits(spin.opaque, digits)
        gtk_spin_button_set_numeric(spin.opaque, 1)
        gtk_spin_button_set_value(spin.opaque, value ?? fallback)
        adw_expander_row_add_row(expander.cast(), PreferenceRows.actionRow(title: spinTitle, subtitle: subtitleOfSpin, suffix: spin))
        return (expander, spin)
    }

    /// Tenths as Preferences shows them, hundredths when the chat has them (`--temperature 0.25`).
    private static func digits(of temperature: Double?) -> UInt32 {
        guard let temperature else { return 1 }
        return (temperature * 10).rounded() == temperature * 10 ? 1 : 2
    }

    /// The spin button's value when its expander's switch is on.
    private static func value(of expander: UnsafeMutablePointer<GtkWidget>, _ spin: UnsafeMutablePointer<GtkWidget>) -> Double? {
        guard adw_expander_row_get_enable_expansion(expander.cast()) != 0 else { return nil }
        gtk_spin_button_update(spin.opaque)
        return gtk_spin_button_get_value(spin.opaque)
    }
}
