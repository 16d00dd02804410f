import AgentCore
import CGtk

/// The message field: several lines when needed (it grows to about five, then scrolls),
/// Enter sends, Shift+Enter starts a new line, and an input method composing text gets its
/// Enter first. Shows "Type a message…" while empty. Page Up and Page Down scroll the
/// conversation while the field's own text fits.
@MainActor
final class MessageInput {
    let widget: UnsafeMutablePointer<GtkWidget>
    let textView: UnsafeMutablePointer<GtkWidget>
    private let buffer: UnsafeMutablePointer<GtkTextBuffer>
    private let placeholder: UnsafeMutablePointer<GtkWidget>
    private var settingText = false
    /// The text changed (typed, pasted or set).
    var onChanged: ((String) -> Void)?
    /// Enter was pressed.
    var onSubmit: (() -> Void)?
    /// A paste (Ctrl+V, the context menu): true when it was taken as files, so no text is pasted.
    var onPaste: (() -> Bool)?
    /// Page Up (true) or Page Down (false) while the field's text fits: true when taken.
    var onPage: ((Bool) -> Bool)?
    /// The text's height changed (a line more or less): the field may have grown or shrunk.
    var onTextHeightChanged: (() -> Void)?

    init(placeholder: String) {
        textView = gtk_text_view_new()
        gtk_text_view_set_wrap_mode(textView.cast(), GTK_WRAP_WORD_CHAR)
        gtk_text_view_set_accepts_tab(textView.cast(), 0)
        // One line is as tall as the Send button beside it, which sets the row's least height:
        // the field is as tall as its text, and the placeholder, centred, where its first line is.
        GtkText.setMargins(textView, vertical: 10, horizontal: 12)
        agent_accessible_set_label(textView, tr("Message"))
        GtkText.addClasses(textView, "message-input")
        buffer = gtk_text_view_get_buffer(textView.cast())

        let scroller: UnsafeMutablePointer<GtkWidget> = gtk_scrolled_window_new()
        // No scroll bar: its least height (54 px with Adwaita's) would make the field taller
        // than one line, the text above the placeholder. The text scrolls with the cursor, the
        // wheel and touch.
        gtk_scrolled_window_set_policy(scroller.opaque, GTK_POLICY_NEVER, GTK_POLICY_EXTERNAL)
        gtk_scrolled_window_set_propagate_natural_height(scroller.opaque, 1)
        gtk_scrolled_window_set_max_content_height(scroller.opaque, 120)
        gtk_scrolled_window_set_child(scroller.opaque, textView)
        GtkText.addClasses(scroller, "message-field")

        self.placeholder = gtk_label_new(placeholder)
        GtkText.addClasses(self.placeholder, "dim-label", "message-placeholder")
        gtk_widget_set_halign(self.placeholder, GTK_ALIGN_START)
        gtk_widget_set_valign(self.placeholder, GTK_ALIGN_CENTER)
        gtk_widget_set_margin_start(self.placeholder, 14)
        gtk_widget_set_can_target(self.placeholder, 0)

        widget = gtk_overlay_new()
        gtk_overlay_set_child(widget.opaque, scroller)
        gtk_overlay_add_overlay(widget.opaque, self.placeholder)
        gtk_widget_set_hexpand(widget, 1)

        Signals.connect(UnsafeMutableRawPointer(buffer), "changed") { [weak self] in
            guard let self else { return }
            let current = self.text
            gtk_widget_set_visible(self.placeholder, current.isEmpty ? 1 : 0)
            if !settingText { onChanged?(current) }
        }
        let keys = gtk_event_controller_key_new()
        gtk_event_controller_set_propagation_phase(keys, GTK_PHASE_CAPTURE)
        let view = textView
        let fieldScroll = gtk_scrolled_window_get_vadjustment(scroller.opaque)
        Signals.connect(UnsafeMutableRawPointer(fieldScroll!), "changed") { [weak self] in self?.onTextHeightChanged?() }
        Signals.connectKeyPressed(UnsafeMutableRawPointer(keys!)) { [weak self] keyval, state in
            if keyval == UInt32(GDK_KEY_Page_Up) || keyval == UInt32(GDK_KEY_Page_Down) {
                let fits = gtk_adjustment_get_upper(fieldScroll) <= gtk_adjustment_get_page_size(fieldScroll)
                guard fits, state.rawValue & Signals.keyModifiers == 0 else { return false }
                return self?.onPage?(keyval == UInt32(GDK_KEY_Page_Up)) ?? false
            }
            guard keyval == UInt32(GDK_KEY_Return) || keyval == UInt32(GDK_KEY_KP_Enter) else { return false }
            if let event = gtk_event_controller_get_current_event(keys),
               gtk_text_view_im_context_filter_keypress(view.cast(), event) != 0 {
                return true  // an input method took it
            }
            if state.rawValue & GDK_SHIFT_MASK.rawValue != 0 { return false }  // a new line
            self?.onSubmit?()
            return true
        }
        gtk_widget_add_controller(textView, keys)
        Signals.connect(textView.raw, "paste-clipboard") { [weak self] in
            guard self?.onPaste?() == true else { return }
            g_signal_stop_emission_by_name(view.raw, "paste-clipboard")
        }
    }

    var text: String {
        get { GtkText.contents(of: buffer) }
        set {
            guard newValue != text else { return }
            settingText = true
            gtk_text_buffer_set_text(buffer, newValue, -1)
            settingText = false
            var end = GtkTextIter()
            gtk_text_buffer_get_end_iter(buffer, &end)
            gtk_text_buffer_place_cursor(buffer, &end)
        }
    }

    /// Types `text` as the user would (tests, scripts): changes and notifies.
    func enter(_ newText: String) {
        gtk_text_buffer_set_text(buffer, newText, -1)
    }

    var placeholderText: String { String(cString: gtk_label_get_text(placeholder.opaque)) }
    var placeholderShown: Bool { gtk_widget_get_visible(placeholder) != 0 }

    func submit() {
        onSubmit?()
    }

    func focus() {
        gtk_widget_grab_focus(textView)
    }
}
