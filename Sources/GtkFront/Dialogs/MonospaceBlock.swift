import CGtk

/// Text to be read exactly — a command line, a tool's arguments, a server's error output:
/// monospace in a card, selectable, wrapped anywhere so that nothing is cut off, and
/// scrolled when it is long.
@MainActor
enum MonospaceBlock {
    /// The card (to add) and the label in it, showing `text` — or `markup`, Pango markup of
    /// the same text that the caller escaped.
    ///
    /// A short text is shown whole and the dialog grows to fit it. A long one is scrolled in a
    /// card `maxHeight` high: a scrolled window would otherwise be given the height its text
    /// needs at a wider width than it gets, and show a few lines of it with no sign of more.
    static func make(text: String, markup: String? = nil, maxHeight: Int32 = 200,
                     accessibleName: String) -> (card: UnsafeMutablePointer<GtkWidget>, label: UnsafeMutablePointer<GtkWidget>) {
        let label: UnsafeMutablePointer<GtkWidget> = gtk_label_new(nil)
        if let markup { gtk_label_set_markup(label.opaque, markup) } else { gtk_label_set_text(label.opaque, text) }
        gtk_label_set_selectable(label.opaque, 1)
        gtk_label_set_wrap(label.opaque, 1)
        gtk_label_set_wrap_mode(label.opaque, PANGO_WRAP_WORD_CHAR)
        gtk_label_set_xalign(label.opaque, 0)
        gtk_label_set_yalign(label.opaque, 0)
        GtkText.addClasses(label, "monospace")
        gtk_widget_set_margin_top(label, 8)
        gtk_widget_set_margin_bottom(label, 8)
        gtk_widget_set_margin_start(label, 10)
        gtk_widget_set_margin_end(label, 10)
        agent_accessible_set_label(label, accessibleName)
        let card: UnsafeMutablePointer<GtkWidget>
        if fits(text, in: maxHeight) {
            card = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0)
            gtk_box_append(card.cast(), label)
        } else {
            card = gtk_scrolled_window_new()
            gtk_scrolled_window_set_child(card.opaque, label)
            gtk_scrolled_window_set_policy(card.opaque, GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC)
            gtk_scrolled_window_set_min_content_height(card.opaque, maxHeight)
        }
        GtkText.addClasses(card, "card", "monospace-block")
        return (card, label)
    }

    /// Whether `text` takes at most `height` pixels at 40 monospace characters a line (20
    /// pixels each), a narrow dialog's measure.
    static func fits(_ text: String, in height: Int32) -> Bool {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).reduce(0) { $0 + max(1, ($1.count + 39) / 40) }
        return lines * 20 <= Int(height) - 16
    }

    /// A left-aligned wrapping label, for the lines around a block.
    static func caption(_ text: String, classes: String...) -> UnsafeMutablePointer<GtkWidget> {
        let label: UnsafeMutablePointer<GtkWidget> = gtk_label_new(text)
        gtk_label_set_wrap(label.opaque, 1)
        gtk_label_set_wrap_mode(label.opaque, PANGO_WRAP_WORD_CHAR)
        gtk_label_set_xalign(label.opaque, 0)
        for name in classes { gtk_widget_add_css_class(label, name) }
        return label
    }
}
