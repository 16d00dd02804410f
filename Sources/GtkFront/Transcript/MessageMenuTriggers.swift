import CGtk

/// What opens a message's menu: a right click or a finger held on its bubble, and Shift+F10
/// or the Menu key with the focus anywhere in its row (its text, its buttons), taken before a
/// selectable label's own menu. A right click on a link is left to its label, whose menu
/// offers Open Link and Copy Link Address, as in every GTK app.
@MainActor
enum MessageMenuTriggers {
    /// Installs them on `bubble` and `row`: `open` gets the point in the bubble to point at;
    /// `canOpen` says whether the keys open it now (a row with a message, its menu not open).
    static func install(on bubble: UnsafeMutablePointer<GtkWidget>, row: UnsafeMutablePointer<GtkWidget>,
                        canOpen: @escaping @MainActor () -> Bool, open: @escaping @MainActor (Double, Double) -> Void) {
        let rightClick: OpaquePointer = gtk_gesture_click_new()
        gtk_gesture_single_set_button(rightClick, guint(GDK_BUTTON_SECONDARY))
        gtk_event_controller_set_propagation_phase(rightClick, GTK_PHASE_CAPTURE)
        Signals.connectPressed(UnsafeMutableRawPointer(rightClick)) { _, x, y in
            guard !isOverLink(bubble, x: x, y: y) else { return }
            gtk_gesture_set_state(rightClick, GTK_EVENT_SEQUENCE_CLAIMED)
            open(x, y)
        }
        gtk_widget_add_controller(bubble, rightClick)
        let longPress: OpaquePointer = gtk_gesture_long_press_new()
        gtk_gesture_single_set_touch_only(longPress, 1)
        gtk_event_controller_set_propagation_phase(longPress, GTK_PHASE_CAPTURE)
        Signals.connectLongPressed(UnsafeMutableRawPointer(longPress)) { x, y in
            gtk_gesture_set_state(longPress, GTK_EVENT_SEQUENCE_CLAIMED)
            open(x, y)
        }
        gtk_widget_add_controller(bubble, longPress)
        guard let keys = gtk_event_controller_key_new() else { return }
        gtk_event_controller_set_propagation_phase(keys, GTK_PHASE_CAPTURE)
        Signals.connectKeyPressed(UnsafeMutableRawPointer(keys)) { keyval, state in
            let modifiers = state.rawValue & Signals.keyModifiers
            let menuKey = (keyval == UInt32(GDK_KEY_F10) && modifiers == GDK_SHIFT_MASK.rawValue)
                || (keyval == UInt32(GDK_KEY_Menu) && modifiers == 0)
            guard menuKey, canOpen() else { return false }
            open(12, 12)
            return true
        }
        gtk_widget_add_controller(row, keys)
    }

    /// Whether (x, y) of `bubble` is on a link: a label shows the pointer cursor exactly
    /// while the pointer is over one of its links (GTK 4.8 tells which link no other way).
    private static func isOverLink(_ bubble: UnsafeMutablePointer<GtkWidget>, x: Double, y: Double) -> Bool {
        guard let picked = gtk_widget_pick(bubble, x, y, GTK_PICK_DEFAULT), GtkText.isLabel(picked),
              let cursor = gtk_widget_get_cursor(picked), let name = gdk_cursor_get_name(cursor) else { return false }
        return String(cString: name) == "pointer"
    }
}
