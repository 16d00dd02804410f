import CGtk
import TextLayout

/// A paragraph shown as a stack of wrapping labels of at most `LineGroups.maxLines` lines
/// each, so a reply of thousands of lines never stalls Pango (see `LineGroups`). It looks
/// and reads as one paragraph; only the groups that changed are set again.
@MainActor
final class StackedLabel {
    /// The CSS class that marks the stack (its labels read as one text).
    static let cssClass = "stacked-label"

    let widget: UnsafeMutablePointer<GtkWidget>
    private var labels: [UnsafeMutablePointer<GtkWidget>] = []
    private var shown: [Substring] = []
    private let classes: [String]

    init(classes: [String]) {
        self.classes = classes
        widget = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0)
        gtk_widget_add_css_class(widget, Self.cssClass)
    }

    /// Shows plain `text`.
    func setText(_ text: String) {
        let groups = LineGroups.split(text)
        while labels.count > groups.count {
            gtk_box_remove(widget.cast(), labels.removeLast())
            shown.removeLast()
        }
        for (index, group) in groups.enumerated() {
            if index == labels.count {
                let label = Self.makeLabel(classes: classes)
                gtk_box_append(widget.cast(), label)
                labels.append(label)
                shown.append("")
            }
            guard shown[index] != group else { continue }
            shown[index] = group
            Self.setText(String(group), of: labels[index])
        }
    }

    /// A stack showing each of `markups` (Pango markup) in a label of its own.
    static func make(markups: [String], classes: [String]) -> UnsafeMutablePointer<GtkWidget> {
        let box: UnsafeMutablePointer<GtkWidget> = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0)
        gtk_widget_add_css_class(box, cssClass)
        for markup in markups {
            let label = makeLabel(classes: classes)
            setMarkup(markup, of: label)
            gtk_box_append(box.cast(), label)
        }
        return box
    }

    /// How wide message text runs, in average characters.
    static let maxWidthChars: Int32 = 64

    /// A label for message text: wrapping at words — and inside a word only when it is wider
    /// than the column (a URL, a path), so the text copied is the text written — selectable
    /// and focusable (a selection copies with Ctrl+C), left-aligned, at most `maxWidthChars` wide.
    /// It fills its column (the bubble is as wide as its widest line): a label aligned to one
    /// side would be measured again at each allocation (see `agent_aligned_box_new`).
    static func makeLabel(classes: [String]) -> UnsafeMutablePointer<GtkWidget> {
        let label: UnsafeMutablePointer<GtkWidget> = gtk_label_new(nil)
        gtk_label_set_wrap(label.opaque, 1)
        gtk_label_set_wrap_mode(label.opaque, PANGO_WRAP_WORD_CHAR)
        gtk_label_set_xalign(label.opaque, 0)
        gtk_label_set_selectable(label.opaque, 1)
        gtk_label_set_max_width_chars(label.opaque, maxWidthChars)
        gtk_widget_set_focusable(label, 1)
        for name in classes { gtk_widget_add_css_class(label, name) }
        return label
    }

    /// The narrowest a message label is measured, in characters. GTK 4.8 finds a wrapping
    /// label's minimum width by laying it out as narrow as its wrap mode allows: in word-char
    /// mode, one character a line, with Pango shaping the text again at every break —
    /// milliseconds for a paragraph, each time a new row or block is measured. A label is
    /// measured at this width instead, or at its own length when shorter (it stays as narrow
    /// as its text).
    static let minimumWidthChars = 16

    /// Sets a message label's plain `text`.
    static func setText(_ text: String, of label: UnsafeMutablePointer<GtkWidget>) {
        gtk_label_set_text(label.opaque, text)
        fitMinimumWidth(of: label)
    }

    /// Sets a message label's Pango `markup`.
    static func setMarkup(_ markup: String, of label: UnsafeMutablePointer<GtkWidget>) {
        gtk_label_set_markup(label.opaque, markup)
        fitMinimumWidth(of: label)
    }

    private static func fitMinimumWidth(of label: UnsafeMutablePointer<GtkWidget>) {
        var characters: Int32 = 0
        if let text = gtk_label_get_text(label.opaque) {
            var byte = text
            // UTF-8 lead bytes, up to the cap.
            while byte.pointee != 0 && characters < Int32(minimumWidthChars) {
                if UInt8(bitPattern: byte.pointee) & 0xC0 != 0x80 { characters += 1 }
                byte += 1
            }
        }
        gtk_label_set_width_chars(label.opaque, characters)
    }

    /// The text of `widget` when it is a stack: its labels' lines, joined.
    static func text(of widget: UnsafeMutablePointer<GtkWidget>) -> String? {
        guard gtk_widget_has_css_class(widget, cssClass) != 0 else { return nil }
        var lines: [String] = []
        var child = gtk_widget_get_first_child(widget)
        while let label = child {
            lines.append(String(cString: gtk_label_get_text(label.opaque)))
            child = gtk_widget_get_next_sibling(label)
        }
        return lines.joined(separator: "\n")
    }
}
