import CGtk

/// A two-column form: a label on the left, its control on the right, row after row.
@MainActor
final class FormGrid {
    let widget: UnsafeMutablePointer<GtkWidget>
    private var rows: Int32 = 0

    init() {
        widget = gtk_grid_new()
        gtk_grid_set_row_spacing(widget.cast(), 10)
        gtk_grid_set_column_spacing(widget.cast(), 12)
        gtk_widget_set_margin_top(widget, 18)
        gtk_widget_set_margin_bottom(widget, 18)
        gtk_widget_set_margin_start(widget, 18)
        gtk_widget_set_margin_end(widget, 18)
    }

    /// Adds a row; `control` also gets `label` as its accessible name. `tall` puts the
    /// label at the top of a control of several lines.
    func add(_ label: String, _ control: UnsafeMutablePointer<GtkWidget>, name: String? = nil, tall: Bool = false) {
        let title: UnsafeMutablePointer<GtkWidget> = gtk_label_new(label)
        gtk_label_set_xalign(title.opaque, 1)
        gtk_widget_set_valign(title, tall ? GTK_ALIGN_START : GTK_ALIGN_BASELINE)
        if tall { gtk_widget_set_margin_top(title, 6) }
        GtkText.addClasses(title, "dim-label")
        gtk_widget_set_hexpand(control, 1)
        agent_accessible_set_label(control, name ?? label)
        gtk_grid_attach(widget.cast(), title, 0, rows, 1, 1)
        gtk_grid_attach(widget.cast(), control, 1, rows, 1, 1)
        rows += 1
    }

    /// A full-width row: a heading, a note or a group of buttons.
    func addWide(_ child: UnsafeMutablePointer<GtkWidget>) {
        gtk_grid_attach(widget.cast(), child, 0, rows, 2, 1)
        rows += 1
    }

    static func note(_ text: String) -> UnsafeMutablePointer<GtkWidget> {
        let label: UnsafeMutablePointer<GtkWidget> = gtk_label_new(text)
        gtk_label_set_wrap(label.opaque, 1)
        gtk_label_set_xalign(label.opaque, 0)
        gtk_label_set_max_width_chars(label.opaque, 60)
        GtkText.addClasses(label, "dim-label", "preferences-note")
        return label
    }

    static func heading(_ text: String) -> UnsafeMutablePointer<GtkWidget> {
        let label: UnsafeMutablePointer<GtkWidget> = gtk_label_new(text)
        gtk_label_set_xalign(label.opaque, 0)
        GtkText.addClasses(label, "heading")
        return label
    }

    static func entry(_ text: String?, placeholder: String? = nil) -> UnsafeMutablePointer<GtkWidget> {
        let entry: UnsafeMutablePointer<GtkWidget> = gtk_entry_new()
        gtk_editable_set_text(entry.opaque, text ?? "")
        if let placeholder { gtk_entry_set_placeholder_text(entry.cast(), placeholder) }
        return entry
    }

    static func text(of editable: UnsafeMutablePointer<GtkWidget>) -> String {
        String(cString: gtk_editable_get_text(editable.opaque))
    }

    static func dropDown(_ items: [String], selected: Int) -> UnsafeMutablePointer<GtkWidget> {
        var strings = items.map { strdup($0) }
        strings.append(nil)
        defer { strings.forEach { free($0) } }
        let dropDown: UnsafeMutablePointer<GtkWidget> = strings.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: UnsafePointer<CChar>?.self) { gtk_drop_down_new_from_strings($0.baseAddress) }
        }
        gtk_drop_down_set_selected(dropDown.opaque, guint(max(0, selected)))
        return dropDown
    }
}
