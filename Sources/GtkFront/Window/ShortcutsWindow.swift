import AgentCore
import CGtk

/// The keyboard shortcuts window (Ctrl+?), GTK's own `GtkShortcutsWindow`, built from
/// `Shortcuts` — the same list the accelerators come from.
@MainActor
enum ShortcutsWindow {
    /// Offers `win.show-help-overlay` on `window`. The shortcuts window is built when first
    /// asked for, not with the window (it costs about as much as the rest of the window),
    /// and kept as the window's help overlay.
    static func offer(on window: UnsafeMutablePointer<GtkWidget>) {
        Actions.add("show-help-overlay", to: window.raw) {
            if gtk_application_window_get_help_overlay(window.cast()) == nil { attach(to: window) }
            guard let overlay = gtk_application_window_get_help_overlay(window.cast()) else { return }
            gtk_window_present(UnsafeMutableRawPointer(overlay).assumingMemoryBound(to: GtkWindow.self))
        }
    }

    /// Makes the window and attaches it to `window` as its help overlay.
    private static func attach(to window: UnsafeMutablePointer<GtkWidget>) {
        // Named as the menu item that opens it; else the window manager and screen readers
        // name it after the program.
        let title = tr("Keyboard Shortcuts")
        var xml = """
            <interface><object class="GtkShortcutsWindow" id="shortcuts"><property name="modal">1</property>
            <property name="title">\(PangoMarkup.escape(title))</property>
            <child><object class="GtkShortcutsSection"><property name="section-name">shortcuts</property>
            """
        for group in Shortcuts.groups {
            xml += "<child><object class=\"GtkShortcutsGroup\"><property name=\"title\">\(PangoMarkup.escape(group.title))</property>"
            for shortcut in group.shortcuts {
                xml += "<child><object class=\"GtkShortcutsShortcut\"><property name=\"title\">\(PangoMarkup.escape(shortcut.title))</property>"
                    + "<property name=\"accelerator\">\(PangoMarkup.escape(shortcut.accelerator))</property></object></child>"
            }
            xml += "</object></child>"
        }
        xml += "</object></child></object></interface>"
        let builder = gtk_builder_new_from_string(xml, -1)
        defer { g_object_unref(UnsafeMutableRawPointer(builder)) }
        guard let object = gtk_builder_get_object(builder, "shortcuts") else { return }
        gtk_application_window_set_help_overlay(window.cast(), OpaquePointer(object))
    }
}
