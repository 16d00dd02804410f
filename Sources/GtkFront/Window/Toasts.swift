import AgentCore
import CGtk

/// Brief notices over the window — "Copied", "“Title” deleted · Undo", "Saved to …" — as
/// libadwaita's toasts in the window's `AdwToastOverlay`, each raised above the composer as
/// tall as it is: when the toast comes on screen, when the chat page does (a narrow window)
/// and when the composer grows (`raiseAfterLayout`: the field, file chips, the editing
/// notice), so that it does not cover what is being typed.
@MainActor
final class Toasts {
    let overlay: UnsafeMutablePointer<GtkWidget>
    /// What a toast keeps above, when it is on screen: the composer.
    private let bottomBar: UnsafeMutablePointer<GtkWidget>

    init(child: UnsafeMutablePointer<GtkWidget>, keepingAbove bottomBar: UnsafeMutablePointer<GtkWidget>) {
        overlay = adw_toast_overlay_new()
        self.bottomBar = bottomBar
        adw_toast_overlay_set_child(OpaquePointer(overlay), child)
    }

    /// Shows `title` (plain text) for `seconds`.
    func show(_ title: String, seconds: UInt32 = 3) {
        guard let toast = Self.make(title, seconds: seconds) else { return }
        add(toast)
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
        add(pointer)
        return toast
    }

    /// Hands `toast` to the overlay, which shows it now or queues it, and raises whichever
    /// toast is on screen. The overlay makes a queued toast's widget when the one before is
    /// dismissed, in its own handler, which runs before the one connected here after it.
    private func add(_ toast: OpaquePointer) {
        adw_toast_overlay_add_toast(OpaquePointer(overlay), toast)
        Signals.connect(UnsafeMutableRawPointer(toast), "dismissed") { [weak self] in self?.raiseShown() }
        raiseShown()
    }

    /// Sets the margin under each toast widget (added to the theme's own gap): the height of
    /// the overlay's part from the top of the composer down, none when the composer is not on
    /// screen. Names its button ("_Undo") by its words, as `MnemonicButton` does.
    func raiseShown() {
        // Without its child the overlay is being taken down with the window (its toasts are
        // dismissed then), the composer gone with it.
        guard adw_toast_overlay_get_child(OpaquePointer(overlay)) != nil else { return }
        var bounds = graphene_rect_t()
        let height = gtk_widget_get_mapped(bottomBar) != 0 && gtk_widget_compute_bounds(bottomBar, overlay, &bounds) != 0
            ? max(0, gtk_widget_get_height(overlay) - Int32(bounds.origin.y.rounded(.down))) : 0
        for toast in toastWidgets {
            gtk_widget_set_margin_bottom(toast, height)
            MnemonicButton.nameByWords(in: toast)
        }
    }

    /// Raises the toast on screen once the composer's new height is laid out (a line more or
    /// less, file chips, the editing notice); with none on screen, as while typing, nothing.
    func raiseAfterLayout() {
        guard toastWidgets.first != nil else { return }
        AfterPaint.next(overlay) { [weak self] in self?.raiseShown() }
    }

    /// The toast widgets the overlay holds.
    private var toastWidgets: [UnsafeMutablePointer<GtkWidget>] {
        var widgets: [UnsafeMutablePointer<GtkWidget>] = []
        var child = gtk_widget_get_first_child(overlay)
        while let current = child {
            if String(cString: gtk_widget_get_css_name(current)) == "toast" { widgets.append(current) }
            child = gtk_widget_get_next_sibling(current)
        }
        return widgets
    }

    /// The texts of the toasts on screen.
    var shownTexts: [String] {
        toastWidgets.flatMap { GtkText.labels(in: $0) }
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
