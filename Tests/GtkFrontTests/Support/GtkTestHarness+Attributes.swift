import CGtk
@testable import GtkFront

extension GtkTestHarness {
    /// The parts of `label`'s text its Pango attributes set in bold, in order.
    static func boldWords(in label: UnsafeMutablePointer<GtkWidget>) -> [String] {
        guard let list = gtk_label_get_attributes(label.opaque) else { return [] }
        let text = Array(String(cString: gtk_label_get_text(label.opaque)).utf8)
        let copies = pango_attr_list_get_attributes(list)
        defer { g_slist_free(copies) }
        var words: [String] = []
        var node = copies
        while let current = node {
            if let attribute = current.pointee.data?.assumingMemoryBound(to: PangoAttribute.self) {
                let (start, end) = (Int(attribute.pointee.start_index), Int(attribute.pointee.end_index))
                let weight = UnsafeMutableRawPointer(attribute).assumingMemoryBound(to: PangoAttrInt.self).pointee.value
                if attribute.pointee.klass.pointee.type == PANGO_ATTR_WEIGHT, weight >= PANGO_WEIGHT_BOLD.rawValue,
                   start <= end, end <= text.count {
                    words.append(String(decoding: text[start..<end], as: UTF8.self))
                }
                pango_attribute_destroy(attribute)
            }
            node = current.pointee.next
        }
        return words
    }
}

/// The widgets GTK asked for a tooltip, and those whose own handlers gave none, as a
/// window test records them from GLib's callbacks (on the main thread).
final class TooltipQueries: @unchecked Sendable {
    var asked: Set<UnsafeMutableRawPointer> = []
    var unanswered: Set<UnsafeMutableRawPointer> = []
}
