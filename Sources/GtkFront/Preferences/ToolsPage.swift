import AgentCore
import CGtk

/// Preferences › Tools: which on-device tools the model may call, the location to give
/// when the device cannot tell, the "Always Allow" answer to take back, and the MCP
/// servers whose tools join them.
@MainActor
final class ToolsPage {
    let widget: UnsafeMutablePointer<GtkWidget>
    private let settings: SettingsStore
    let locationSwitch: UnsafeMutablePointer<GtkWidget>
    let dateTimeSwitch: UnsafeMutablePointer<GtkWidget>
    let manualLocation: UnsafeMutablePointer<GtkWidget>
    /// Says how to write a location the row cannot read.
    let locationProblem: UnsafeMutablePointer<GtkWidget>
    let forgetConsent: UnsafeMutablePointer<GtkWidget>
    /// "Share the Location Without Asking": its subtitle says whether it is so.
    let consentRow: UnsafeMutablePointer<GtkWidget>
    /// The MCP servers and the tools allowed without asking (nil: no MCP for this run).
    let mcpServers: MCPServersGroup?
    let mcpAlwaysAllowed: MCPAlwaysAllowedGroup?

    /// Something to tell the user ("Added “time”").
    var onNotice: ((String) -> Void)? {
        didSet { mcpServers?.onNotice = onNotice }
    }

    /// `window`: Preferences, which the MCP group's dialogs open over.
    init(settings: SettingsStore, mcp: MCPServersModel? = nil, window: UnsafeMutablePointer<GtkWidget>? = nil) {
        self.settings = settings
        widget = PreferenceRows.page(title: tr("Tools"), icon: "applications-utilities-symbolic", name: "tools")
        let tools = PreferenceRows.group(in: widget, title: tr("Tools the Model May Call"),
                                         description: tr("A server profile can switch tools off for its models."))
        locationSwitch = gtk_switch_new()
        dateTimeSwitch = gtk_switch_new()
        PreferenceRows.add(PreferenceRows.actionRow(title: tr("Location"), subtitle: tr("get_location: where this computer is. Agent asks you first."),
                                                    suffix: locationSwitch), to: tools)
        PreferenceRows.add(PreferenceRows.actionRow(title: tr("Date and Time"), subtitle: tr("get_datetime: the local date, time and time zone."),
                                                    suffix: dateTimeSwitch), to: tools)

        if let mcp, let window {
            let servers = MCPServersGroup(in: widget, model: mcp, window: window)
            mcpServers = servers
            mcpAlwaysAllowed = MCPAlwaysAllowedGroup(in: widget, model: mcp, focusWhenEmptied: servers.addButton)
        } else {
            mcpServers = nil
            mcpAlwaysAllowed = nil
        }

        let location = PreferenceRows.group(in: widget, title: tr("Location"),
                                            description: tr("The manual location is used when the desktop’s location service (GeoClue) is unavailable or refuses."))
        manualLocation = PreferenceRows.entryRow(title: tr("Manual Location (latitude, longitude)"), settings: settings.root, key: "manual-location")
        PreferenceRows.add(manualLocation, to: location)
        locationProblem = gtk_label_new(tr("Write it as latitude, longitude in degrees, such as 48.8566, 2.3522."))
        gtk_label_set_wrap(locationProblem.opaque, 1)
        gtk_label_set_xalign(locationProblem.opaque, 0)
        GtkText.addClasses(locationProblem, "error")
        gtk_widget_set_margin_top(locationProblem, 6)
        PreferenceRows.add(locationProblem, to: location)
        forgetConsent = MnemonicButton.make(tr("_Ask Again"))
        consentRow = PreferenceRows.actionRow(title: tr("Share the Location Without Asking"), suffix: forgetConsent)
        PreferenceRows.add(consentRow, to: location)
        PreferenceRows.bind(settings.root, "location-always-allowed", forgetConsent.raw, "sensitive", readOnly: true)
        showConsent()
        Signals.connect(forgetConsent.raw, "notify::sensitive") { [weak self] (_: UnsafeMutableRawPointer?) in self?.showConsent() }

        let disabled = settings.disabledTools
        gtk_switch_set_active(locationSwitch.opaque, disabled.contains(LocationTool.name) ? 0 : 1)
        gtk_switch_set_active(dateTimeSwitch.opaque, disabled.contains(DateTimeTool.name) ? 0 : 1)
        checkLocation()
        for toggle in [locationSwitch, dateTimeSwitch] {
            Signals.connect(toggle.raw, "notify::active") { [weak self] (_: UnsafeMutableRawPointer?) in self?.saveTools() }
        }
        Signals.connect(manualLocation.raw, "changed") { [weak self] in self?.checkLocation() }
        Signals.connect(forgetConsent.raw, "clicked") { [weak self] in self?.settings.locationAlwaysAllowed = false }
    }

    /// Whether the location is shared without asking (Ask Again's sensitivity, bound to the
    /// setting, says when it changes).
    private func showConsent() {
        adw_action_row_set_subtitle(consentRow.cast(), settings.locationAlwaysAllowed ? tr("You chose “Always Allow”. Ask Again takes it back.")
                                        : tr("No: Agent asks each time the model wants the location."))
    }

    /// The window closed: answers still on their way are dropped.
    func windowClosed() {
        mcpServers?.windowClosed()
        mcpAlwaysAllowed?.windowClosed()
    }

    /// The tools switched off, as one list in settings.
    private func saveTools() {
        var disabled = settings.disabledTools
        for (name, toggle) in [(LocationTool.name, locationSwitch), (DateTimeTool.name, dateTimeSwitch)] {
            if gtk_switch_get_active(toggle.opaque) != 0 { disabled.remove(name) } else { disabled.insert(name) }
        }
        settings.disabledTools = disabled
    }

    /// A location that cannot be read is pointed out (and not used).
    private func checkLocation() {
        let text = PreferenceRows.text(of: manualLocation).trimmed
        let readable = text.isEmpty || Coordinates(parsing: text) != nil
        gtk_widget_set_visible(locationProblem, readable ? 0 : 1)
        if readable { gtk_widget_remove_css_class(manualLocation, "error") } else { gtk_widget_add_css_class(manualLocation, "error") }
    }
}
