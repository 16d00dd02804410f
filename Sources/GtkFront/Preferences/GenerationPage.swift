import AgentCore
import CGtk

/// Preferences › Generation: temperature and reply length (or the server's defaults), how
/// much of a chat each request carries, and the system prompt new chats start with.
@MainActor
final class GenerationPage {
    let widget: UnsafeMutablePointer<GtkWidget>
    let customTemperature: UnsafeMutablePointer<GtkWidget>
    let temperature: UnsafeMutablePointer<GtkWidget>
    let maxTokens: UnsafeMutablePointer<GtkWidget>
    let contextBudget: UnsafeMutablePointer<GtkWidget>
    let systemPrompt: UnsafeMutablePointer<GtkWidget>

    init(settings: SettingsStore) {
        let root = settings.root
        widget = PreferenceRows.page(title: tr("Generation"), icon: "document-edit-symbolic", name: "generation")
        let replies = PreferenceRows.group(in: widget, title: tr("Replies"))
        let custom = PreferenceRows.switchRow(title: tr("Set the Temperature"),
                                              subtitle: tr("Off: the server’s default. Lower is more focused, higher more varied."),
                                              settings: root, key: "custom-temperature")
        customTemperature = custom.toggle
        PreferenceRows.add(custom.row, to: replies)
        let temperatureRow = PreferenceRows.spinRow(title: tr("Temperature"), range: 0...2, step: 0.1, digits: 1,
                                                    settings: root, key: "temperature")
        temperature = temperatureRow.spin
        PreferenceRows.bind(root, "custom-temperature", temperatureRow.row.raw, "sensitive", readOnly: true)
        PreferenceRows.add(temperatureRow.row, to: replies)
        let tokens = PreferenceRows.spinRow(title: tr("Longest Reply"), subtitle: tr("In tokens; 0: no limit."), range: 0...131_072, step: 64,
                                            settings: root, key: "max-tokens")
        maxTokens = tokens.spin
        PreferenceRows.add(tokens.row, to: replies)

        let context = PreferenceRows.group(in: widget, title: tr("Context"))
        let budget = PreferenceRows.spinRow(title: tr("Context Budget"),
                                            subtitle: tr("How many tokens of a chat each request to a server carries. The oldest turns are left out first; the system prompt and your newest message always go. The local model’s budget comes from the model."),
                                            range: 256...1_048_576, step: 256, settings: root, key: "context-budget")
        contextBudget = budget.spin
        PreferenceRows.add(budget.row, to: context)
        let share = PreferenceRows.spinRow(title: tr("Share for Folders"),
                                           subtitle: tr("At most this percentage of the budget goes to passages from the folders a chat asks about."),
                                           range: 5...90, step: 5, settings: root, key: "knowledge-share")
        PreferenceRows.add(share.row, to: context)

        let prompt = PreferenceRows.group(in: widget, title: tr("System Prompt"),
                                          description: tr("New chats start with this prompt; chats you already have keep theirs."))
        let area = PreferenceRows.textArea(label: tr("System prompt"), height: 140)
        systemPrompt = area.view
        GtkText.addClasses(systemPrompt, "system-prompt")
        PreferenceRows.bind(root, "system-prompt", UnsafeMutableRawPointer(gtk_text_view_get_buffer(systemPrompt.cast())), "text")
        PreferenceRows.add(area.card, to: prompt)
    }
}
