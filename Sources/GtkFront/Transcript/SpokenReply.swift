import AgentCore
import CGtk

/// A reply's bubble as it is read aloud: the texts on screen, in order — each paragraph,
/// heading, list item, table cell and code block, their Markdown already rendered away (no
/// emphasis marks, fences or link targets), list bullets and buttons left out — and the word
/// being spoken highlighted where it is shown: a Pango background on a label, a tag in a text
/// view's buffer.
@MainActor
final class SpokenReply {
    private enum Piece {
        case label(UnsafeMutablePointer<GtkWidget>)
        case textView(UnsafeMutablePointer<GtkWidget>)
    }

    let text: SpokenText
    private let pieces: [Piece]
    private var highlighted: Int?

    /// The texts shown inside `roots`, depth first.
    init(showing roots: [UnsafeMutablePointer<GtkWidget>]) {
        var pieces: [Piece] = []
        for root in roots { Self.collect(root, into: &pieces) }
        self.pieces = pieces
        text = SpokenText(segments: pieces.map(Self.text(of:)))
        // Held: a reply rendered again drops its widgets, and the highlight is taken off later.
        for piece in pieces { g_object_ref(Self.widget(of: piece).raw) }
    }

    isolated deinit {
        for piece in pieces { g_object_unref(Self.widget(of: piece).raw) }
    }

    private static func widget(of piece: Piece) -> UnsafeMutablePointer<GtkWidget> {
        switch piece {
        case .label(let widget), .textView(let widget): widget
        }
    }

    /// Labels that are not the reply's words: list bullets, a code block's language.
    private static let unspokenClasses = ["md-bullet", "code-language", "cut-notice"]

    private static func collect(_ widget: UnsafeMutablePointer<GtkWidget>, into pieces: inout [Piece]) {
        guard gtk_widget_get_visible(widget) != 0 else { return }
        if GtkText.isLabel(widget) {
            if !unspokenClasses.contains(where: { gtk_widget_has_css_class(widget, $0) != 0 }) { pieces.append(.label(widget)) }
            return
        }
        if widget.isA(gtk_text_view_get_type()) {
            pieces.append(.textView(widget))
            return
        }
        if widget.isA(gtk_button_get_type()) { return }
        var child = gtk_widget_get_first_child(widget)
        while let current = child {
            collect(current, into: &pieces)
            child = gtk_widget_get_next_sibling(current)
        }
    }

    private static func text(of piece: Piece) -> String {
        switch piece {
        case .label(let label): String(cString: gtk_label_get_text(label.opaque))
        case .textView(let view): GtkText.contents(of: gtk_text_view_get_buffer(view.cast()))
        }
    }

    /// Where a highlighted word is: a widget and the word's top and height in it.
    struct Place {
        let widget: UnsafeMutablePointer<GtkWidget>
        let y: Double
        let height: Double
    }

    /// Highlights `word` (one of `text`'s), or nothing; where it is.
    @discardableResult
    func highlight(_ word: SpokenText.Word?) -> Place? {
        if let highlighted, highlighted != word?.segment { clear(pieces[highlighted]) }
        highlighted = word?.segment
        guard let word, pieces.indices.contains(word.segment) else { return nil }
        switch pieces[word.segment] {
        case .label(let label):
            let attributes = pango_attr_list_new()
            for attribute in Self.highlightAttributes() {
                attribute.pointee.start_index = guint(word.bytes.lowerBound)
                attribute.pointee.end_index = guint(word.bytes.upperBound)
                pango_attr_list_insert(attributes, attribute)
            }
            gtk_label_set_attributes(label.opaque, attributes)
            pango_attr_list_unref(attributes)
            return Self.place(of: word, in: label)
        case .textView(let view):
            let buffer = gtk_text_view_get_buffer(view.cast())
            var start = GtkTextIter(), end = GtkTextIter()
            gtk_text_buffer_get_bounds(buffer, &start, &end)
            let tag = Self.highlightTag(in: buffer)
            gtk_text_buffer_remove_tag(buffer, tag, &start, &end)
            gtk_text_buffer_get_iter_at_offset(buffer, &start, Int32(word.scalars.lowerBound))
            gtk_text_buffer_get_iter_at_offset(buffer, &end, Int32(word.scalars.upperBound))
            gtk_text_buffer_apply_tag(buffer, tag, &start, &end)
            var location = GdkRectangle()
            gtk_text_view_get_iter_location(view.cast(), &start, &location)
            var y: Int32 = 0
            gtk_text_view_buffer_to_window_coords(view.cast(), GTK_TEXT_WINDOW_WIDGET, location.x, location.y, nil, &y)
            return Place(widget: view, y: Double(y), height: Double(location.height))
        }
    }

    /// The highlighted word, its text and where it is shown (tests); several highlighted are
    /// joined by " | ".
    var highlightedWord: (text: String, widget: UnsafeMutablePointer<GtkWidget>)? {
        guard let highlighted else { return nil }
        switch pieces[highlighted] {
        case .label(let label):
            // As drawn: the attributes of the label's layout, its markup's and ours merged.
            guard let layout = gtk_label_get_layout(label.opaque), let attributes = pango_layout_get_attributes(layout),
                  let iterator = pango_attr_list_get_iterator(attributes) else { return nil }
            defer { pango_attr_iterator_destroy(iterator) }
            // The iterator splits a range where other attributes start or end (bold inside a word).
            var ranges: [Range<Int>] = []
            repeat {
                if pango_attr_iterator_get(iterator, PANGO_ATTR_BACKGROUND) != nil {
                    var start: Int32 = 0, end: Int32 = 0
                    pango_attr_iterator_range(iterator, &start, &end)
                    if let last = ranges.last, last.upperBound == Int(start) {
                        ranges[ranges.count - 1] = last.lowerBound..<Int(end)
                    } else {
                        ranges.append(Int(start)..<Int(end))
                    }
                }
            } while pango_attr_iterator_next(iterator) != 0
            let utf8 = text.segments[highlighted].utf8
            let words = ranges.map { String(decoding: utf8.dropFirst($0.lowerBound).prefix($0.count), as: UTF8.self) }
            return words.isEmpty ? nil : (words.joined(separator: " | "), label)
        case .textView(let view):
            let buffer = gtk_text_view_get_buffer(view.cast())
            var start = GtkTextIter()
            gtk_text_buffer_get_start_iter(buffer, &start)
            let tag = Self.highlightTag(in: buffer)
            guard gtk_text_iter_starts_tag(&start, tag) != 0 || gtk_text_iter_forward_to_tag_toggle(&start, tag) != 0 else { return nil }
            var end = start
            gtk_text_iter_forward_to_tag_toggle(&end, tag)
            guard let chars = gtk_text_buffer_get_text(buffer, &start, &end, 0) else { return nil }
            defer { g_free(chars) }
            return (String(cString: chars), view)
        }
    }

    /// Takes the highlight away.
    func clear() {
        if let highlighted { clear(pieces[highlighted]) }
        highlighted = nil
    }

    private func clear(_ piece: Piece) {
        switch piece {
        case .label(let label):
            gtk_label_set_attributes(label.opaque, nil)
        case .textView(let view):
            let buffer = gtk_text_view_get_buffer(view.cast())
            var start = GtkTextIter(), end = GtkTextIter()
            gtk_text_buffer_get_bounds(buffer, &start, &end)
            gtk_text_buffer_remove_tag(buffer, Self.highlightTag(in: buffer), &start, &end)
        }
    }

    /// libadwaita's blue at 40 %: the text stays readable on light and dark bubbles.
    private static let color = (red: UInt16(0x3535), green: UInt16(0x8484), blue: UInt16(0xe4e4), alpha: UInt16(0x6666))

    private static func highlightAttributes() -> [UnsafeMutablePointer<PangoAttribute>] {
        [pango_attr_background_new(color.red, color.green, color.blue), pango_attr_background_alpha_new(color.alpha)]
    }

    private static let tagName = "agent-reading"

    /// The buffer's highlight tag, made the first time, above the syntax colours.
    private static func highlightTag(in buffer: UnsafeMutablePointer<GtkTextBuffer>?) -> UnsafeMutablePointer<GtkTextTag>? {
        let table = gtk_text_buffer_get_tag_table(buffer)
        if let tag = gtk_text_tag_table_lookup(table, tagName) { return tag }
        guard let tag = gtk_text_tag_new(tagName) else { return nil }
        var value = GValue()
        g_value_init(&value, GType(16 << G_TYPE_FUNDAMENTAL_SHIFT))  // G_TYPE_STRING
        g_value_set_string(&value, "rgba(53,132,228,0.4)")
        g_object_set_property(UnsafeMutableRawPointer(tag).assumingMemoryBound(to: GObject.self), "background", &value)
        g_value_unset(&value)
        gtk_text_tag_table_add(table, tag)
        gtk_text_tag_set_priority(tag, gtk_text_tag_table_get_size(table) - 1)
        g_object_unref(UnsafeMutableRawPointer(tag))
        return tag
    }

    private static func place(of word: SpokenText.Word, in label: UnsafeMutablePointer<GtkWidget>) -> Place? {
        guard let layout = gtk_label_get_layout(label.opaque) else { return nil }
        var x: Int32 = 0, y: Int32 = 0
        gtk_label_get_layout_offsets(label.opaque, &x, &y)
        var rectangle = PangoRectangle()
        pango_layout_index_to_pos(layout, Int32(word.bytes.lowerBound), &rectangle)
        let scale = Double(PANGO_SCALE)
        return Place(widget: label, y: Double(y) + Double(rectangle.y) / scale, height: Double(rectangle.height) / scale)
    }
}
