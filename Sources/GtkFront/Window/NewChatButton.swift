import AgentCore
import CGtk

/// The sidebar's new-chat button: a split button whose face starts a chat from the preset
/// used last (as Ctrl+N does) and whose menu lists every preset, then "Manage Presets…".
@MainActor
final class NewChatButton {
    let widget: UnsafeMutablePointer<GtkWidget>
    /// The split button's halves, its first and last children in libadwaita 1.2: the face that
    /// starts a chat, the arrow that opens the menu.
    let face: UnsafeMutablePointer<GtkWidget>?
    let arrow: UnsafeMutablePointer<GtkWidget>?
    private let menu: OpaquePointer
    private let library: ChatLibrary

    init(library: ChatLibrary) {
        self.library = library
        widget = adw_split_button_new()
        adw_split_button_set_icon_name(OpaquePointer(widget), "list-add-symbolic")
        gtk_actionable_set_action_name(OpaquePointer(widget), "win.new-chat")
        agent_split_button_set_dropdown_tooltip(widget, tr("New Chat from a Preset"))
        menu = g_menu_new()
        adw_split_button_set_menu_model(OpaquePointer(widget), UnsafeMutablePointer<GMenuModel>(menu))
        // Screen readers meet the halves, not the split button: each gets its name.
        face = gtk_widget_get_first_child(widget)
        arrow = gtk_widget_get_last_child(widget)
        if let arrow { agent_accessible_set_label(arrow, tr("New chat from a preset")) }
        refresh()
    }

    isolated deinit {
        g_object_unref(UnsafeMutableRawPointer(menu))
    }

    /// The presets as they are now, and the face's tooltip naming the one it starts from.
    func refresh() {
        let presets = library.presets
        refreshMenu(presets)
        showTooltip(for: ChatPreset.lastUsed(in: presets))
    }

    private func refreshMenu(_ presets: [ChatPreset]) {
        g_menu_remove_all(menu)
        let section = g_menu_new()
        for preset in presets {
            // A menu label's underscore marks its mnemonic: one in a name is doubled to show.
            let item = g_menu_item_new(preset.name.replacing("_", with: "__"), nil)
            g_menu_item_set_action_and_target_value(item, "win.new-chat-from", g_variant_new_string(preset.id.uuidString))
            g_menu_append_item(section, item)
            g_object_unref(UnsafeMutableRawPointer(item))
        }
        g_menu_append_section(menu, nil, UnsafeMutablePointer<GMenuModel>(section))
        g_object_unref(UnsafeMutableRawPointer(section))
        let manage = g_menu_new()
        g_menu_append(manage, tr("_Manage Presets…"), "win.manage-presets")
        g_menu_append_section(menu, nil, UnsafeMutablePointer<GMenuModel>(manage))
        g_object_unref(UnsafeMutableRawPointer(manage))
    }

    /// "New “Translator” Chat": the preset the face and Ctrl+N start from.
    func refreshTooltip() {
        showTooltip(for: library.lastUsedPreset)
    }

    private func showTooltip(for lastUsed: ChatPreset?) {
        let tooltip = lastUsed.map { tr("New “%s” Chat", $0.name) } ?? tr("New Chat")
        agent_widget_set_tooltip_text(face ?? widget, tooltip)
        if let face { agent_accessible_set_label(face, tooltip) }
    }
}
