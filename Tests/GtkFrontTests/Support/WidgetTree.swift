import CGtk

/// A widget and every widget inside it, depth first in child order, hidden ones included.
/// The tests' searches for a button, a label or a popover walk it.
struct WidgetTree: Sequence, IteratorProtocol {
    private let root: UnsafeMutablePointer<GtkWidget>
    private var upcoming: UnsafeMutablePointer<GtkWidget>?

    init(_ root: UnsafeMutablePointer<GtkWidget>) {
        self.root = root
        upcoming = root
    }

    mutating func next() -> UnsafeMutablePointer<GtkWidget>? {
        guard let current = upcoming else { return nil }
        if let child = gtk_widget_get_first_child(current) {
            upcoming = child
            return current
        }
        // No children: the next sibling of this widget or of the nearest ancestor with one.
        var climbing: UnsafeMutablePointer<GtkWidget>? = current
        upcoming = nil
        while let widget = climbing, widget != root {
            if let sibling = gtk_widget_get_next_sibling(widget) {
                upcoming = sibling
                break
            }
            climbing = gtk_widget_get_parent(widget)
        }
        return current
    }
}
