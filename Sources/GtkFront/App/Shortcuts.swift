import AgentCore
import CGtk

/// Every keyboard shortcut, in one list: the application binds these accelerators to their
/// actions, the window binds Escape, and the shortcuts window (Ctrl+?) shows all of them.
@MainActor
enum Shortcuts {
    /// Where a shortcut is handled.
    enum Scope {
        /// An application-wide accelerator for `action`.
        case accelerator(action: String)
        /// The window's, only when the focused widget has no use for the key (Escape closes a
        /// search or a menu first).
        case whenUnused(action: String)
        /// A widget's own key (Enter in the message field): shown, not bound here.
        case widget
    }

    struct Shortcut {
        let title: String
        let accelerator: String
        let scope: Scope
    }

    static let groups: [(title: String, shortcuts: [Shortcut])] = [
        (tr("Chat"), [
            Shortcut(title: tr("Send the message"), accelerator: "Return", scope: .widget),
            Shortcut(title: tr("New line in the message"), accelerator: "<Shift>Return", scope: .widget),
            Shortcut(title: tr("Attach a file"), accelerator: "<Control>o", scope: .accelerator(action: "win.attach")),
            Shortcut(title: tr("Ask about a folder"), accelerator: "<Control><Shift>o", scope: .accelerator(action: "win.add-folder")),
            Shortcut(title: tr("Stop the reply, or cancel an edit"), accelerator: "Escape", scope: .whenUnused(action: "win.stop")),
            Shortcut(title: tr("Choose the model"), accelerator: "<Control>m", scope: .accelerator(action: "win.choose-model")),
            Shortcut(title: tr("The chat’s settings"), accelerator: "<Control>i", scope: .accelerator(action: "win.chat-settings")),
            Shortcut(title: tr("Regenerate the last reply"), accelerator: "<Control><Shift>r", scope: .accelerator(action: "win.regenerate")),
            Shortcut(title: tr("Scroll the conversation a page up"), accelerator: "Page_Up", scope: .widget),
            Shortcut(title: tr("Scroll the conversation a page down"), accelerator: "Page_Down", scope: .widget),
            Shortcut(title: tr("Previous version of the focused message"), accelerator: "<Alt>Left", scope: .widget),
            Shortcut(title: tr("Next version of the focused message"), accelerator: "<Alt>Right", scope: .widget),
            Shortcut(title: tr("The focused message's menu"), accelerator: "<Shift>F10", scope: .widget),
            Shortcut(title: tr("Read the focused reply aloud (or the last one), or stop reading"), accelerator: "<Control><Shift>s",
                     scope: .accelerator(action: "win.read-aloud")),
            Shortcut(title: tr("Copy the chat as Markdown"), accelerator: "<Control><Shift>c", scope: .accelerator(action: "win.copy-chat")),
        ]),
        (tr("Chats"), [
            Shortcut(title: tr("New chat, from the preset used last"), accelerator: "<Control>n", scope: .accelerator(action: "win.new-chat")),
            Shortcut(title: tr("Search chats"), accelerator: "<Control>f", scope: .accelerator(action: "win.search")),
            Shortcut(title: tr("Rename the chat"), accelerator: "F2", scope: .accelerator(action: "win.rename-chat")),
        ]),
        (tr("Application"), [
            Shortcut(title: tr("Preferences"), accelerator: "<Control>comma", scope: .accelerator(action: "win.preferences")),
            Shortcut(title: tr("The main menu"), accelerator: "F10", scope: .widget),
            Shortcut(title: tr("Keyboard shortcuts"), accelerator: "<Control>question", scope: .accelerator(action: "win.show-help-overlay")),
            Shortcut(title: tr("Close the window"), accelerator: "<Control>w", scope: .accelerator(action: "window.close")),
            Shortcut(title: tr("Quit"), accelerator: "<Control>q", scope: .accelerator(action: "app.quit")),
        ]),
    ]

    /// Binds the application-wide accelerators.
    static func install(in application: UnsafeMutablePointer<GtkApplication>) {
        var byAction: [String: [String]] = [:]
        for shortcut in groups.flatMap(\.shortcuts) {
            if case .accelerator(let action) = shortcut.scope { byAction[action, default: []].append(shortcut.accelerator) }
        }
        for (action, accelerators) in byAction {
            CStringArray.with(accelerators) { gtk_application_set_accels_for_action(application, action, $0) }
        }
    }

    /// Binds the window's keys that apply only when nothing focused wants them.
    static func install(in window: UnsafeMutablePointer<GtkWidget>) {
        var keys: [String: String] = [:]
        for shortcut in groups.flatMap(\.shortcuts) {
            if case .whenUnused(let action) = shortcut.scope { keys[shortcut.accelerator] = action }
        }
        bindWhenUnused(keys, in: window)
    }

    /// Binds each accelerator to its action on `widget`, in the bubble phase: a focused
    /// widget that uses the key (a search entry, an open list) gets it first.
    static func bindWhenUnused(_ keys: [String: String], in widget: UnsafeMutablePointer<GtkWidget>) {
        let controller: OpaquePointer = gtk_shortcut_controller_new()
        gtk_event_controller_set_propagation_phase(controller, GTK_PHASE_BUBBLE)
        for (accelerator, action) in keys {
            gtk_shortcut_controller_add_shortcut(controller, gtk_shortcut_new(gtk_shortcut_trigger_parse_string(accelerator),
                                                                              gtk_named_action_new(action)))
        }
        gtk_widget_add_controller(widget, controller)
    }
}
