import AgentCore
import CGtk

/// Brief notices over the window — "Copied", "“Title” deleted · Undo", "Saved to …" — as
/// libadwaita's toasts in the window's `AdwToastOverlay`, raised above a one-line composer
/// (`chat-toasts` in style.css) so that they do not cover what is being typed.
@MainActor
final class Toasts {
    let overlay: UnsafeMutablePointer<GtkWidget>

    init(child: UnsafeMutablePointer<GtkWidget>) {
        overlay = adw_toast_overlay_new()
        GtkText.addClasses(overlay, "chat-toasts")
        adw_toast_overlay_set_child(OpaquePointer(overlay), child)
    }

    /// Shows `title` (plain text) for `seconds`.
    func show(_ title: String, seconds: UInt32 = 3) {
        let toast = Self.make(title, seconds: seconds)
        adw_toast_overlay_add_toast(OpaquePointer(overlay), toast)
    }

    /// Shows `title` with a button (such as Undo) until it is clicked, dismissed or times out:
    /// `onButton` runs for a click, `onDismissed` once it is gone either way.
    func show(_ title: String, button: String, seconds: UInt32 = 6, onButton: @escaping @MainActor () -> Void,
              onDismissed: @escaping @MainActor () -> Void) -> Toast? {
        guard let pointer = Self.make(title, seconds: seconds) else { return nil }
        let toast = Toast(pointer)
        adw_toast_set_button_label(pointer, button)
        adw_toast_set_priority(pointer, ADW_TOAST_PRIORITY_HIGH)
        Signals.connect(UnsafeMutableRawPointer(pointer), "button-clicked") { onButton() }
        Signals.connect(UnsafeMutableRawPointer(pointer), "dismissed") { onDismissed() }
        adw_toast_overlay_add_toast(OpaquePointer(overlay), pointer)
        return toast
    }

    /// The texts of the toasts on screen.
    var shownTexts: [String] {
        var texts: [String] = []
        var child = gtk_widget_get_first_child(overlay)
        while let current = child {
            if String(cString: gtk_widget_get_css_name(current)) == "toast" { texts += GtkText.labels(in: current) }
            child = gtk_widget_get_next_sibling(current)
        }
        return texts
    }

    /// A toast saying `title` (plain text: libadwaita 1.2 reads a toast's title as markup, so
    /// model and chat text is escaped).
    static func make(_ title: String, seconds: UInt32) -> OpaquePointer? {
        let toast = adw_toast_new(PangoMarkup.escape(title))
        adw_toast_set_timeout(toast, seconds)
        return toast
    }
}

/// A toast kept to be dismissed early (an Undo that no longer applies): holds a reference
/// of its own, as the overlay drops its reference once the toast is gone.
@MainActor
final class Toast {
    private let pointer: OpaquePointer

    init(_ pointer: OpaquePointer) {
        self.pointer = pointer
        g_object_ref(UnsafeMutableRawPointer(pointer))
    }

    isolated deinit {
        g_object_unref(UnsafeMutableRawPointer(pointer))
    }

    func dismiss() {
        adw_toast_dismiss(pointer)
    }
}
