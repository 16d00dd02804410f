import CGtk

/// A row of small cards or links that wraps onto more lines where space is short (files on
/// a message, folders, sources): a flow box nothing in it can be selected, refilled whole.
/// Never aligned to the end itself: GTK 4.8 sizes the chips of an end-aligned flow box whose
/// last line is full from past the end of its list of sizes (random widths, some off screen).
/// A box around it takes the alignment.
@MainActor
enum ChipFlow {
    static func make(label: String, columnSpacing: Int32, rowSpacing: Int32 = 0) -> UnsafeMutablePointer<GtkWidget> {
        let box: UnsafeMutablePointer<GtkWidget> = gtk_flow_box_new()
        gtk_flow_box_set_selection_mode(box.opaque, GTK_SELECTION_NONE)
        gtk_flow_box_set_column_spacing(box.opaque, guint(columnSpacing))
        gtk_flow_box_set_row_spacing(box.opaque, guint(rowSpacing))
        agent_accessible_set_label(box, label)
        return box
    }

    /// Replaces what `box` holds with `children`. The flow box's cells take no focus of their
    /// own (they pass it to what they hold), so a chip's button is one Tab stop, not two.
    static func fill(_ box: UnsafeMutablePointer<GtkWidget>, with children: [UnsafeMutablePointer<GtkWidget>]) {
        while let child = gtk_widget_get_first_child(box) { gtk_flow_box_remove(box.opaque, child) }
        for child in children {
            gtk_flow_box_append(box.opaque, child)
            if let cell = gtk_widget_get_parent(child) { gtk_widget_set_focusable(cell, 0) }
        }
    }
}
