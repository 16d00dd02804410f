import AgentCore
import CGtk

/// The header bars' menus: the main menu (chats in and out, Preferences, shortcuts, About)
/// and the chat's own menu. Every item is an action, as its shortcut is.
@MainActor
enum Menus {
    /// The main menu; `withLibrary`: chats are saved (import and export exist).
    static func main(withLibrary: Bool) -> UnsafeMutablePointer<GtkWidget> {
        var sections: [[(String, String)]] = []
        if withLibrary { sections.append([(tr("_Import Chats…"), "win.import"), (tr("E_xport All Chats…"), "win.export-all")]) }
        sections.append([(tr("_Preferences"), "win.preferences"), (tr("_Keyboard Shortcuts"), "win.show-help-overlay"),
                         (tr("_About Agent"), "win.about")])
        return button(icon: "open-menu-symbolic", tooltip: tr("Main Menu"), sections: sections)
    }

    /// The open chat's menu.
    static func chat(withLibrary: Bool) -> UnsafeMutablePointer<GtkWidget> {
        var sections: [[(String, String)]] = [[(tr("Chat _Settings…"), "win.chat-settings")],
                                              [(tr("_Regenerate Reply"), "win.regenerate"), (tr("_Copy Chat as Markdown"), "win.copy-chat")],
                                              [(tr("_Attach a File…"), "win.attach"), (tr("Ask About a _Folder…"), "win.add-folder")]]
        if withLibrary {
            sections.append([(tr("_Rename Chat…"), "win.rename-chat"), (tr("Export as _Markdown…"), "win.export-markdown"),
                             (tr("Export as _JSON…"), "win.export-json")])
            sections.append([(tr("_Delete Chat"), "win.delete-chat")])
        }
        return button(icon: "view-more-symbolic", tooltip: tr("Chat Menu"), sections: sections)
    }

    private static func button(icon: String, tooltip: String, sections: [[(String, String)]]) -> UnsafeMutablePointer<GtkWidget> {
        let menu = g_menu_new()
        for items in sections {
            let section = g_menu_new()
            for (label, action) in items { g_menu_append(section, label, action) }
            g_menu_append_section(menu, nil, UnsafeMutablePointer<GMenuModel>(section))
            g_object_unref(UnsafeMutableRawPointer(section))
        }
        let button: UnsafeMutablePointer<GtkWidget> = gtk_menu_button_new()
        gtk_menu_button_set_icon_name(button.opaque, icon)
        // The popover is built the first time the menu opens, not with the window. The
        // button holds the menu's reference for its life.
        gtk_menu_button_set_create_popup_func(button.opaque, { button, menu in
            guard let button, let menu, gtk_menu_button_get_menu_model(button) == nil else { return }
            gtk_menu_button_set_menu_model(button, menu.assumingMemoryBound(to: GMenuModel.self))
        }, UnsafeMutableRawPointer(menu), { g_object_unref($0) })
        gtk_menu_button_set_primary(button.opaque, icon == "open-menu-symbolic" ? 1 : 0)
        agent_widget_set_tooltip_text(button, tooltip)
        agent_accessible_set_label(button, tooltip)
        return button
    }

    /// A header bar button for `action`.
    static func actionButton(icon: String, action: String, tooltip: String) -> UnsafeMutablePointer<GtkWidget> {
        let button: UnsafeMutablePointer<GtkWidget> = gtk_button_new_from_icon_name(icon)
        gtk_actionable_set_action_name(OpaquePointer(button), action)
        agent_widget_set_tooltip_text(button, tooltip)
        agent_accessible_set_label(button, tooltip)
        return button
    }
}
