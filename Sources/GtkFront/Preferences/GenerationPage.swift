import AgentCore
import CGtk

/// Preferences › Generation: temperature and reply length (or the server's defaults), how
/// much of a chat each request carries, and the system prompt new chats start with.
@MainActor
final class GenerationPage {
    let widget: UnsafeMutablePointer<GtkWidget>
    private let settings: SettingsStore
    /// A setting changed.
    var onChange: (() -> Void)?

    let customTemperature: UnsafeMutablePointer<GtkWidget>
    let temperature: UnsafeMutablePointer<GtkWidget>
    let maxTokens: UnsafeMutablePointer<GtkWidget>
    let contextBudget: UnsafeMutablePointer<GtkWidget>
    let systemPrompt: UnsafeMutablePointer<GtkWidget>

    init(settings: SettingsStore) {
        self.settings = settings
        customTemperature = gtk_switch_new()
        gtk_widget_set_valign(customTemperature, GTK_ALIGN_CENTER)
        temperature = gtk_spin_button_new_with_range(0, 2, 0.1)
        gtk_spin_button_set_digits(temperature.opaque, 1)
        maxTokens = gtk_spin_button_new_with_range(0, 131_072, 64)
        contextBudget = gtk_spin_button_new_with_range(256, 1_048_576, 256)
        systemPrompt = gtk_text_view_new()
        gtk_text_view_set_wrap_mode(systemPrompt.cast(), GTK_WRAP_WORD_CHAR)
        GtkText.setMargins(systemPrompt, vertical: 6, horizontal: 6)

        let temperatureRow: UnsafeMutablePointer<GtkWidget> = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 12)
        gtk_widget_set_hexpand(temperature, 1)
        gtk_box_append(temperatureRow.cast(), customTemperature)
        gtk_box_append(temperatureRow.cast(), temperature)
        agent_accessible_set_label(customTemperature, "Custom temperature")
        let scroller: UnsafeMutablePointer<GtkWidget> = gtk_scrolled_window_new()
        gtk_scrolled_window_set_child(scroller.opaque, systemPrompt)
        gtk_scrolled_window_set_policy(scroller.opaque, GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC)
        gtk_widget_set_size_request(scroller, -1, 120)
        gtk_widget_set_vexpand(scroller, 1)
        let frame: UnsafeMutablePointer<GtkWidget> = gtk_frame_new(nil)
        gtk_frame_set_child(frame.cast(), scroller)

        let form = FormGrid()
        form.add("Temperature", temperatureRow, name: "Temperature row")
        agent_accessible_set_label(temperature, "Temperature")
        form.addWide(FormGrid.note("Off: the server's default. Lower is more focused, higher more varied."))
        form.add("Max tokens", maxTokens)
        form.addWide(FormGrid.note("The longest reply, in tokens. 0: no limit."))
        form.add("Context budget", contextBudget)
        form.addWide(FormGrid.note("How many tokens of the chat each request carries. The oldest turns are left out first; "
            + "the system prompt and your newest message always go."))
        form.add("System prompt", frame, tall: true)
        agent_accessible_set_label(systemPrompt, "System prompt")
        form.addWide(FormGrid.note("New chats start with this prompt; chats you already have keep theirs."))
        widget = form.widget

        let temperatureValue = settings.temperature
        gtk_switch_set_active(customTemperature.opaque, temperatureValue == nil ? 0 : 1)
        gtk_spin_button_set_value(temperature.opaque, temperatureValue ?? 0.7)
        gtk_widget_set_sensitive(temperature, temperatureValue == nil ? 0 : 1)
        gtk_spin_button_set_value(maxTokens.opaque, Double(settings.maxTokens ?? 0))
        gtk_spin_button_set_value(contextBudget.opaque, Double(settings.contextBudget))
        gtk_text_buffer_set_text(gtk_text_view_get_buffer(systemPrompt.cast()), settings.systemPrompt, -1)

        Signals.connect(customTemperature.raw, "notify::active") { [weak self] (_: UnsafeMutableRawPointer?) in self?.save() }
        for spin in [temperature, maxTokens, contextBudget] {
            Signals.connect(spin.raw, "value-changed") { [weak self] in self?.save() }
        }
        Signals.connect(UnsafeMutableRawPointer(gtk_text_view_get_buffer(systemPrompt.cast())), "changed") { [weak self] in
            self?.save()
        }
    }

    private func save() {
        let custom = gtk_switch_get_active(customTemperature.opaque) != 0
        gtk_widget_set_sensitive(temperature, custom ? 1 : 0)
        settings.temperature = custom ? (gtk_spin_button_get_value(temperature.opaque) * 10).rounded() / 10 : nil
        let tokens = Int(gtk_spin_button_get_value_as_int(maxTokens.opaque))
        settings.maxTokens = tokens > 0 ? tokens : nil
        settings.contextBudget = Int(gtk_spin_button_get_value_as_int(contextBudget.opaque))
        settings.systemPrompt = GtkText.contents(of: gtk_text_view_get_buffer(systemPrompt.cast()))
        onChange?()
    }
}
