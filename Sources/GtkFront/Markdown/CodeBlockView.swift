import AgentCore
import CGtk
import CGtkSourceView

/// A code block in a reply: its language and a Copy button over the code, highlighted by
/// GtkSourceView and scrolled sideways rather than wrapped.
@MainActor
final class CodeBlockView {
    let widget: UnsafeMutablePointer<GtkWidget>
    let copyButton: UnsafeMutablePointer<GtkWidget>
    let code: String
    /// Where the code is scrolled sideways (tests).
    let horizontalAdjustment: UnsafeMutablePointer<GtkAdjustment>?
    private let buffer: UnsafeMutablePointer<GtkSourceBuffer>
    private static var initialized = false

    init(language: String?, code: String, onCopy: @escaping @MainActor (String, UnsafeMutablePointer<GtkWidget>) -> Void) {
        if !Self.initialized {
            gtk_source_init()
            Self.initialized = true
        }
        self.code = code
        let buffer: UnsafeMutablePointer<GtkSourceBuffer> = gtk_source_buffer_new(nil)
        self.buffer = buffer
        gtk_text_buffer_set_text(UnsafeMutablePointer<GtkTextBuffer>(OpaquePointer(buffer)), code, -1)
        let manager = gtk_source_language_manager_get_default()
        let sourceLanguage = language.flatMap { Self.language(named: $0, in: manager) }
        if let sourceLanguage { gtk_source_buffer_set_language(buffer, sourceLanguage) }
        gtk_source_buffer_set_highlight_syntax(buffer, 1)
        agent_source_buffer_follow_style(buffer, UnsafeMutableRawPointer(adw_style_manager_get_default()))
        let view: UnsafeMutablePointer<GtkWidget> = gtk_source_view_new_with_buffer(buffer)
        gtk_text_view_set_editable(view.cast(), 0)
        gtk_text_view_set_cursor_visible(view.cast(), 0)
        gtk_text_view_set_monospace(view.cast(), 1)
        gtk_text_view_set_wrap_mode(view.cast(), GTK_WRAP_NONE)
        GtkText.setMargins(view, vertical: 8, horizontal: 10)
        agent_accessible_set_label(view, tr("Code"))
        GtkText.addClasses(view, "code-view")

        let scroller: UnsafeMutablePointer<GtkWidget> = gtk_scrolled_window_new()
        gtk_scrolled_window_set_policy(scroller.opaque, GTK_POLICY_AUTOMATIC, GTK_POLICY_NEVER)
        gtk_scrolled_window_set_propagate_natural_height(scroller.opaque, 1)
        gtk_scrolled_window_set_propagate_natural_width(scroller.opaque, 1)
        gtk_scrolled_window_set_max_content_width(scroller.opaque, 620)
        gtk_scrolled_window_set_child(scroller.opaque, view)
        Self.passVerticalScrolling(from: scroller)
        horizontalAdjustment = gtk_scrolled_window_get_hadjustment(scroller.opaque)

        let name: UnsafeMutablePointer<GtkWidget> = gtk_label_new(
            sourceLanguage.flatMap { gtk_source_language_get_name($0) }.map { String(cString: $0) } ?? language ?? tr("Code"))
        gtk_label_set_xalign(name.opaque, 0)
        gtk_widget_set_hexpand(name, 1)
        GtkText.addClasses(name, "code-language", "dim-label")
        copyButton = gtk_button_new_from_icon_name("edit-copy-symbolic")
        GtkText.addClasses(copyButton, "flat", "copy-button")
        agent_widget_set_tooltip_text(copyButton, tr("Copy code"))
        agent_accessible_set_label(copyButton, tr("Copy code"))
        let header: UnsafeMutablePointer<GtkWidget> = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 4)
        GtkText.addClasses(header, "code-header")
        gtk_box_append(header.cast(), name)
        gtk_box_append(header.cast(), copyButton)

        widget = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0)
        GtkText.addClasses(widget, "code-block")
        gtk_box_append(widget.cast(), header)
        // As tall as the whole code from the first frame, and as wide as its lines allow
        // (see agent_full_text_measure).
        gtk_box_append(widget.cast(), agent_full_text_box_new(scroller, view))
        let button = copyButton
        Signals.connect(copyButton.raw, "clicked") { onCopy(code, button) }
    }

    /// The wheel over a code block scrolls the conversation: GTK's scrolled window keeps
    /// every scroll it could use on one axis, so the block's own (sideways) takes only
    /// horizontal ones; Shift and the wheel scroll a block wider than its box sideways.
    private static func passVerticalScrolling(from scroller: UnsafeMutablePointer<GtkWidget>) {
        let horizontal = GtkEventControllerScrollFlags(rawValue: GTK_EVENT_CONTROLLER_SCROLL_HORIZONTAL.rawValue
            | GTK_EVENT_CONTROLLER_SCROLL_KINETIC.rawValue)
        let controllers = gtk_widget_observe_controllers(scroller)
        for index in 0..<g_list_model_get_n_items(controllers) {
            guard let controller = g_list_model_get_item(controllers, index) else { continue }
            if g_type_check_instance_is_a(controller.assumingMemoryBound(to: GTypeInstance.self), gtk_event_controller_scroll_get_type()) != 0 {
                gtk_event_controller_scroll_set_flags(OpaquePointer(controller), horizontal)
            }
            g_object_unref(controller)
        }
        g_object_unref(UnsafeMutableRawPointer(controllers))

        guard let shifted = gtk_event_controller_scroll_new(GTK_EVENT_CONTROLLER_SCROLL_VERTICAL) else { return }
        gtk_event_controller_set_propagation_phase(shifted, GTK_PHASE_CAPTURE)
        // The controller holds this closure: the pointers it keeps live as long as it may run.
        Signals.connectScroll(UnsafeMutableRawPointer(shifted)) { _, dy in
            guard gtk_event_controller_get_current_event_state(shifted).rawValue & GDK_SHIFT_MASK.rawValue != 0,
                  let adjustment = gtk_scrolled_window_get_hadjustment(scroller.opaque),
                  gtk_adjustment_get_upper(adjustment) > gtk_adjustment_get_page_size(adjustment) else { return false }
            // GTK's own wheel step: the page size to the power 2/3.
            let step = gtk_event_controller_scroll_get_unit(OpaquePointer(UnsafeMutableRawPointer(shifted))) == GDK_SCROLL_UNIT_WHEEL
                ? pow(gtk_adjustment_get_page_size(adjustment), 2.0 / 3.0) : 1
            gtk_adjustment_set_value(adjustment, gtk_adjustment_get_value(adjustment) + dy * step)
            return true
        }
        gtk_widget_add_controller(scroller, shifted)
    }

    isolated deinit {
        g_object_unref(UnsafeMutableRawPointer(buffer))
    }

    /// The highlighting colours in use: "Adwaita", or "Adwaita-dark" when libadwaita's style
    /// manager says the app is dark.
    var styleSchemeID: String? {
        gtk_source_buffer_get_style_scheme(buffer).flatMap { gtk_source_style_scheme_get_id($0) }.map { String(cString: $0) }
    }

    private static let aliases = ["js": "js", "javascript": "js", "ts": "typescript", "py": "python3", "python": "python3", "python3": "python3",
                                  "sh": "sh", "bash": "sh", "shell": "sh", "zsh": "sh", "console": "sh", "c++": "cpp",
                                  "yml": "yaml", "rs": "rust", "kt": "kotlin", "rb": "ruby", "md": "markdown", "objc": "objc",
                                  "html": "html", "xml": "xml", "json": "json", "swift": "swift", "go": "go", "sql": "sql"]

    private static func language(named name: String, in manager: OpaquePointer?) -> OpaquePointer? {
        let lowered = name.lowercased()
        return gtk_source_language_manager_get_language(manager, aliases[lowered] ?? lowered)
    }
}
