import AgentCore
import CGtk

/// The rows Preferences is made of — libadwaita's pages, groups, action rows with a switch
/// or a spin button, entry rows — each bound to its GSettings key with `g_settings_bind`,
/// so a row shows its key and writes it, with no code of its own.
@MainActor
enum PreferenceRows {
    static func page(title: String, icon: String, name: String) -> UnsafeMutablePointer<GtkWidget> {
        let page: UnsafeMutablePointer<GtkWidget> = adw_preferences_page_new()
        adw_preferences_page_set_title(page.cast(), title)
        adw_preferences_page_set_icon_name(page.cast(), icon)
        adw_preferences_page_set_name(page.cast(), name)
        return page
    }

    static func group(in page: UnsafeMutablePointer<GtkWidget>, title: String?, description: String? = nil) -> UnsafeMutablePointer<GtkWidget> {
        let group: UnsafeMutablePointer<GtkWidget> = adw_preferences_group_new()
        if let title { adw_preferences_group_set_title(group.cast(), title) }
        if let description { adw_preferences_group_set_description(group.cast(), description) }
        adw_preferences_page_add(page.cast(), group.cast())
        return group
    }

    /// A flat + in `group`'s header ("Add a Server"), named for screen readers as its tooltip says.
    static func addButton(in group: UnsafeMutablePointer<GtkWidget>, tooltip: String) -> UnsafeMutablePointer<GtkWidget> {
        let button: UnsafeMutablePointer<GtkWidget> = gtk_button_new_from_icon_name("list-add-symbolic")
        GtkText.addClasses(button, "flat")
        agent_widget_set_tooltip_text(button, tooltip)
        agent_accessible_set_label(button, tooltip)
        adw_preferences_group_set_header_suffix(group.cast(), button)
        return button
    }

    static func add(_ row: UnsafeMutablePointer<GtkWidget>, to group: UnsafeMutablePointer<GtkWidget>) {
        adw_preferences_group_add(group.cast(), row)
    }

    /// An action row (plain-text title and subtitle) with `suffix` at its end, which
    /// clicking the row activates.
    static func actionRow(title: String, subtitle: String? = nil, suffix: UnsafeMutablePointer<GtkWidget>? = nil) -> UnsafeMutablePointer<GtkWidget> {
        let row: UnsafeMutablePointer<GtkWidget> = adw_action_row_new()
        adw_preferences_row_set_use_markup(row.cast(), 0)
        adw_preferences_row_set_title(row.cast(), title)
        if let subtitle { adw_action_row_set_subtitle(row.cast(), subtitle) }
        if let suffix {
            gtk_widget_set_valign(suffix, GTK_ALIGN_CENTER)
            adw_action_row_add_suffix(row.cast(), suffix)
            adw_action_row_set_activatable_widget(row.cast(), suffix)
            agent_accessible_set_label(suffix, title)
        }
        return row
    }

    /// A row with a switch bound to boolean `key`; returns the row and the switch.
    static func switchRow(title: String, subtitle: String? = nil, settings: GSettingsObject,
                          key: String) -> (row: UnsafeMutablePointer<GtkWidget>, toggle: UnsafeMutablePointer<GtkWidget>) {
        let toggle: UnsafeMutablePointer<GtkWidget> = gtk_switch_new()
        bind(settings, key, toggle.raw, "active")
        return (actionRow(title: title, subtitle: subtitle, suffix: toggle), toggle)
    }

    /// A row with a spin button bound to number `key`.
    static func spinRow(title: String, subtitle: String? = nil, range: ClosedRange<Double>, step: Double, digits: UInt32 = 0,
                        settings: GSettingsObject, key: String) -> (row: UnsafeMutablePointer<GtkWidget>, spin: UnsafeMutablePointer<GtkWidget>) {
        let spin: UnsafeMutablePointer<GtkWidget> = gtk_spin_button_new_with_range(range.lowerBound, range.upperBound, step)
        gtk_spin_button_set_digits(spin.opaque, digits)
        gtk_spin_button_set_numeric(spin.opaque, 1)
        bind(settings, key, spin.raw, "value")
        return (actionRow(title: title, subtitle: subtitle, suffix: spin), spin)
    }

    /// An entry row bound to string `key` (typing changes the key in Preferences' delayed
    /// settings; nothing is written until the window closes).
    static func entryRow(title: String, settings: GSettingsObject, key: String) -> UnsafeMutablePointer<GtkWidget> {
        let row: UnsafeMutablePointer<GtkWidget> = adw_entry_row_new()
        adw_preferences_row_set_use_markup(row.cast(), 0)
        adw_preferences_row_set_title(row.cast(), title)
        bind(settings, key, row.raw, "text")
        return row
    }

    /// A multi-line text field in a card, `height` tall, holding `text` and named `label` for
    /// screen readers: returns the text view and the scrolled card to add to a group.
    static func textArea(_ text: String = "", label: String, height: Int32,
                         monospace: Bool = false) -> (view: UnsafeMutablePointer<GtkWidget>, card: UnsafeMutablePointer<GtkWidget>) {
        let view: UnsafeMutablePointer<GtkWidget> = gtk_text_view_new()
        gtk_text_view_set_monospace(view.cast(), monospace ? 1 : 0)
        gtk_text_view_set_wrap_mode(view.cast(), GTK_WRAP_WORD_CHAR)
        gtk_text_view_set_accepts_tab(view.cast(), 0)
        GtkText.setMargins(view, vertical: monospace ? 8 : 10, horizontal: monospace ? 10 : 12)
        gtk_text_buffer_set_text(gtk_text_view_get_buffer(view.cast()), text, -1)
        agent_accessible_set_label(view, label)
        let card: UnsafeMutablePointer<GtkWidget> = gtk_scrolled_window_new()
        gtk_scrolled_window_set_child(card.opaque, view)
        gtk_scrolled_window_set_policy(card.opaque, GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC)
        gtk_widget_set_size_request(card, -1, height)
        GtkText.addClasses(card, "card")
        return (view, card)
    }

    /// `g_settings_bind`: `property` of `object` follows `key` and writes it back.
    static func bind(_ settings: GSettingsObject, _ key: String, _ object: UnsafeMutableRawPointer, _ property: String,
                     readOnly: Bool = false) {
        g_settings_bind(settings.raw.assumingMemoryBound(to: GSettings.self), key, object, property,
                        readOnly ? G_SETTINGS_BIND_GET : G_SETTINGS_BIND_DEFAULT)
    }

    /// The text of an editable (an entry row).
    static func text(of editable: UnsafeMutablePointer<GtkWidget>) -> String {
        String(cString: gtk_editable_get_text(editable.opaque))
    }
}
