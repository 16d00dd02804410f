import AgentCore
import CGtk

/// The row under "Pull a Model" while a pull runs: what Ollama is doing, the bytes and the
/// speed, a progress bar with the percentage, and Cancel. When the pull fails it stays,
/// with Ollama's words in place of the progress, until dismissed.
@MainActor
final class OllamaPullRow {
    let widget: UnsafeMutablePointer<GtkWidget>
    let bar: UnsafeMutablePointer<GtkWidget>
    /// Cancel while pulling, Dismiss after a failure.
    let button: UnsafeMutablePointer<GtkWidget>
    private(set) var failed = false

    var onButton: (() -> Void)?

    init() {
        widget = adw_action_row_new()
        adw_preferences_row_set_use_markup(widget.cast(), 0)
        bar = gtk_progress_bar_new()
        gtk_progress_bar_set_show_text(bar.opaque, 1)
        gtk_widget_set_size_request(bar, 160, -1)
        gtk_widget_set_valign(bar, GTK_ALIGN_CENTER)
        adw_action_row_add_suffix(widget.cast(), bar)
        button = MnemonicButton.make(tr("_Cancel"))
        gtk_widget_set_valign(button, GTK_ALIGN_CENTER)
        adw_action_row_add_suffix(widget.cast(), button)
        gtk_widget_set_visible(widget, 0)
        Signals.connect(button.raw, "clicked") { [weak self] in self?.onButton?() }
    }

    var title: String { adw_preferences_row_get_title(widget.cast()).map { String(cString: $0) } ?? "" }
    var subtitle: String { adw_action_row_get_subtitle(widget.cast()).map { String(cString: $0) } ?? "" }
    var fraction: Double { gtk_progress_bar_get_fraction(bar.opaque) }

    /// A pull of `model` starts.
    func start(_ model: String) {
        failed = false
        adw_preferences_row_set_title(widget.cast(), tr("Pulling %s", model))
        adw_action_row_set_subtitle(widget.cast(), tr("Asking Ollama…"))
        gtk_widget_remove_css_class(widget, "error")
        gtk_progress_bar_set_fraction(bar.opaque, 0)
        gtk_progress_bar_set_text(bar.opaque, nil)
        gtk_widget_set_visible(bar, 1)
        MnemonicButton.setLabel(button, tr("_Cancel"))
        agent_widget_set_tooltip_text(button, tr("Stop the download (pulling it again resumes it)"))
        gtk_widget_set_visible(widget, 1)
    }

    /// Ollama's status over "1.2 GB of 2.5 GB · 35.0 MB/s", and the bar at its fraction.
    func show(_ progress: OllamaPullProgress) {
        adw_action_row_set_subtitle(widget.cast(), ([progress.status] + [progress.bytesText].compactMap { $0 }).joined(separator: "\n"))
        if let fraction = progress.fraction {
            gtk_progress_bar_set_fraction(bar.opaque, fraction)
            gtk_progress_bar_set_text(bar.opaque, progress.percentText)
        } else {
            gtk_progress_bar_pulse(bar.opaque)
        }
    }

    /// The pull failed: Ollama's `message` stays in the row until dismissed.
    func fail(_ model: String, message: String) {
        failed = true
        adw_preferences_row_set_title(widget.cast(), tr("Could not pull %s", model))
        adw_action_row_set_subtitle(widget.cast(), message)
        gtk_widget_add_css_class(widget, "error")
        gtk_widget_set_visible(bar, 0)
        MnemonicButton.setLabel(button, tr("_Dismiss"))
        agent_widget_set_tooltip_text(button, nil)
    }

    func hide() {
        failed = false
        gtk_widget_set_visible(widget, 0)
    }
}
