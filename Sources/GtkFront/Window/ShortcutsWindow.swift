import CGtk

/// The keyboard shortcuts window (Ctrl+?), GTK's own `GtkShortcutsWindow`, described in
/// the builder format it is made for.
@MainActor
enum ShortcutsWindow {
    static let shortcuts: [(group: String, items: [(title: String, accelerator: String)])] = [
        ("Chat", [
            ("Send the message", "Return"),
            ("New line in the message", "<Shift>Return"),
            ("Stop the reply, or cancel an edit", "Escape"),
            ("Regenerate the last reply", "<Control><Shift>r"),
            ("Copy the chat as Markdown", "<Control><Shift>c"),
        ]),
        ("Chats", [
            ("New chat", "<Control>n"),
            ("Search chats", "<Control>f"),
            ("Rename the chat", "F2"),
        ]),
        ("Application", [
            ("Preferences", "<Control>comma"),
            ("Keyboard shortcuts", "<Control>question"),
            ("Close the window", "<Control>w"),
            ("Quit", "<Control>q"),
        ]),
    ]

    /// Makes the window and attaches it to `window` as its help overlay (`win.show-help-overlay`).
    static func attach(to window: UnsafeMutablePointer<GtkWidget>) {
        var xml = """
            <interface><object class="GtkShortcutsWindow" id="shortcuts"><property name="modal">1</property>
            <child><object class="GtkShortcutsSection"><property name="section-name">shortcuts</property>
            """
        for group in shortcuts {
            xml += "<child><object class=\"GtkShortcutsGroup\"><property name=\"title\">\(escape(group.group))</property>"
            for item in group.items {
                xml += "<child><object class=\"GtkShortcutsShortcut\"><property name=\"title\">\(escape(item.title))</property>"
                    + "<property name=\"accelerator\">\(escape(item.accelerator))</property></object></child>"
            }
            xml += "</object></child>"
        }
        xml += "</object></child></object></interface>"
        let builder = gtk_builder_new_from_string(xml, -1)
        defer { g_object_unref(UnsafeMutableRawPointer(builder)) }
        guard let object = gtk_builder_get_object(builder, "shortcuts") else { return }
        gtk_application_window_set_help_overlay(window.cast(), OpaquePointer(object))
    }

    private static func escape(_ text: String) -> String {
        text.replacing("&", with: "&amp;").replacing("<", with: "&lt;").replacing(">", with: "&gt;")
    }
}
