import AgentCore
import CGtk

/// Preferences › Tools: which on-device tools the model may call, the location to give
/// when the device cannot tell, and the "Always Allow" answer to take back.
@MainActor
final class ToolsPage {
    let widget: UnsafeMutablePointer<GtkWidget>
    private let settings: SettingsStore
    /// A setting changed.
    var onChange: (() -> Void)?

    let locationSwitch: UnsafeMutablePointer<GtkWidget>
    let dateTimeSwitch: UnsafeMutablePointer<GtkWidget>
    let manualLocation: UnsafeMutablePointer<GtkWidget>
    let locationProblem: UnsafeMutablePointer<GtkWidget>
    let forgetConsent: UnsafeMutablePointer<GtkWidget>

    init(settings: SettingsStore) {
        self.settings = settings
        locationSwitch = ToolsPage.toolSwitch(on: !settings.disabledTools.contains(LocationTool.name))
        dateTimeSwitch = ToolsPage.toolSwitch(on: !settings.disabledTools.contains(DateTimeTool.name))
        manualLocation = FormGrid.entry(settings.manualLocation?.description, placeholder: "latitude, longitude — such as 48.8566, 2.3522")
        locationProblem = FormGrid.note("")
        gtk_widget_set_visible(locationProblem, 0)
        forgetConsent = gtk_button_new_with_mnemonic("_Ask Again Before Sharing the Location")
        gtk_widget_set_halign(forgetConsent, GTK_ALIGN_START)

        let form = FormGrid()
        form.add("Location (get_location)", locationSwitch, name: "Location tool")
        form.addWide(FormGrid.note("The model may ask where this computer is; Agent asks you first."))
        form.add("Date and time (get_datetime)", dateTimeSwitch, name: "Date and time tool")
        form.add("Manual location", manualLocation)
        form.addWide(locationProblem)
        form.addWide(FormGrid.note("Used when the desktop's location service (GeoClue) is unavailable or refuses."))
        form.addWide(forgetConsent)
        widget = form.widget
        refreshConsent()

        Signals.connect(locationSwitch.raw, "notify::active") { [weak self] (_: UnsafeMutableRawPointer?) in self?.saveTools() }
        Signals.connect(dateTimeSwitch.raw, "notify::active") { [weak self] (_: UnsafeMutableRawPointer?) in self?.saveTools() }
        Signals.connect(manualLocation.raw, "changed") { [weak self] in self?.saveLocation() }
        Signals.connect(forgetConsent.raw, "clicked") { [weak self] in
            self?.settings.locationAlwaysAllowed = false
            self?.refreshConsent()
        }
    }

    private static func toolSwitch(on: Bool) -> UnsafeMutablePointer<GtkWidget> {
        let toggle: UnsafeMutablePointer<GtkWidget> = gtk_switch_new()
        gtk_switch_set_active(toggle.opaque, on ? 1 : 0)
        gtk_widget_set_halign(toggle, GTK_ALIGN_START)
        return toggle
    }

    private func refreshConsent() {
        gtk_widget_set_sensitive(forgetConsent, settings.locationAlwaysAllowed ? 1 : 0)
    }

    private func saveTools() {
        var disabled = settings.disabledTools
        for (name, toggle) in [(LocationTool.name, locationSwitch), (DateTimeTool.name, dateTimeSwitch)] {
            if gtk_switch_get_active(toggle.opaque) != 0 { disabled.remove(name) } else { disabled.insert(name) }
        }
        settings.disabledTools = disabled
        onChange?()
    }

    private func saveLocation() {
        let text = FormGrid.text(of: manualLocation).trimmed
        let parsed = Coordinates(parsing: text)
        if text.isEmpty || parsed != nil {
            settings.manualLocation = parsed
            gtk_widget_set_visible(locationProblem, 0)
            gtk_widget_remove_css_class(manualLocation, "error")
            onChange?()
        } else {
            gtk_label_set_text(locationProblem.opaque, "Write it as latitude, longitude in degrees, such as 48.8566, 2.3522.")
            gtk_widget_set_visible(locationProblem, 1)
            gtk_widget_add_css_class(manualLocation, "error")
        }
    }
}
