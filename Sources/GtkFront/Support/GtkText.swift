import CGtk

/// Text in GTK widgets: CSS classes, text view margins, a buffer's contents, the labels a
/// widget holds.
@MainActor
enum GtkText {
    /// Sets the CSS classes of a widget.
    static func addClasses(_ widget: UnsafeMutablePointer<GtkWidget>, _ names: String...) {
        for name in names { gtk_widget_add_css_class(widget, name) }
    }

    /// The space around a text view's text: `vertical` above and below, `horizontal` at the sides.
    static func setMargins(_ view: UnsafeMutablePointer<GtkWidget>, vertical: Int32, horizontal: Int32) {
        gtk_text_view_set_top_margin(view.cast(), vertical)
        gtk_text_view_set_bottom_margin(view.cast(), vertical)
        gtk_text_view_set_left_margin(view.cast(), horizontal)
        gtk_text_view_set_right_margin(view.cast(), horizontal)
    }

    /// All the text in a text buffer.
    static func contents(of buffer: UnsafeMutablePointer<GtkTextBuffer>?) -> String {
        var start = GtkTextIter()
        var end = GtkTextIter()
        gtk_text_buffer_get_bounds(buffer, &start, &end)
        guard let chars = gtk_text_buffer_get_text(buffer, &start, &end, 0) else { return "" }
        defer { g_free(chars) }
        return String(cString: chars)
    }

    /// The texts of every label inside `widget`, depth first (what a screen reader reads); a
    /// paragraph shown as a stack of labels (`StackedLabel`) is one text.
    static func labels(in widget: UnsafeMutablePointer<GtkWidget>) -> [String] {
        if isLabel(widget) { return [String(cString: gtk_label_get_text(widget.opaque))] }
        if let stacked = StackedLabel.text(of: widget) { return [stacked] }
        var texts: [String] = []
        var child = gtk_widget_get_first_child(widget)
        while let current = child {
            texts += labels(in: current)
            child = gtk_widget_get_next_sibling(current)
        }
        return texts
    }

    static func isLabel(_ widget: UnsafeMutablePointer<GtkWidget>) -> Bool {
        widget.isA(gtk_label_get_type())
    }
}
