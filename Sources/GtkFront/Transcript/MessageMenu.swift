import AgentCore
import CGtk

/// A message's right-click menu: Copy, Edit and Send Again (the user's) or Regenerate Reply
/// and Read Aloud (Stop Reading while it is read), Copy Chat, and Delete Version when the
/// message has others. One popover per row, made when the menu first opens (most rows are
/// built while scrolling and never show it) and parented to the row's bubble for the rest of
/// the row's life — GTK takes it down with the row, so nothing ever has to unparent it later,
/// when the row may be gone.
@MainActor
final class MessageMenu {
    private let bubble: UnsafeMutablePointer<GtkWidget>
    private var existing: UnsafeMutablePointer<GtkWidget>?

    init(attachedTo bubble: UnsafeMutablePointer<GtkWidget>) {
        self.bubble = bubble
    }

    /// The menu's popover, made on first use.
    var popover: UnsafeMutablePointer<GtkWidget> {
        if let existing { return existing }
        let popover: UnsafeMutablePointer<GtkWidget> = gtk_popover_menu_new_from_model(nil)
        gtk_popover_set_has_arrow(popover.cast(), 0)
        gtk_widget_set_halign(popover, GTK_ALIGN_START)
        gtk_widget_set_parent(popover, bubble)
        existing = popover
        return popover
    }

    var isOpen: Bool { existing.map { gtk_widget_get_visible($0) != 0 } ?? false }

    /// Whether the popover has been made (tests).
    var hasPopover: Bool { existing != nil }

    /// The items shown now, sections' included (tests, the accessibility tree).
    var itemLabels: [String] {
        existing.flatMap { gtk_popover_menu_get_menu_model(OpaquePointer($0)) }.map(Self.labels) ?? []
    }

    private static func labels(in model: UnsafeMutablePointer<GMenuModel>) -> [String] {
        (0..<g_menu_model_get_n_items(model)).flatMap { index -> [String] in
            if let section = g_menu_model_get_item_link(model, index, G_MENU_LINK_SECTION) {
                defer { g_object_unref(UnsafeMutableRawPointer(section)) }
                return labels(in: section)
            }
            guard let value = g_menu_model_get_item_attribute_value(model, index, "label", nil) else { return [] }
            defer { g_variant_unref(value) }
            return [String(cString: g_variant_get_string(value, nil))]
        }
    }

    /// Whether the menu offers Regenerate Reply, and for which reply.
    enum Regenerate {
        case none
        /// An earlier reply: its own row's action.
        case thisReply
        /// The chat's last reply: the window's action, the same as its shortcut, which the
        /// menu then shows beside it.
        case lastReply
    }

    /// Opens the menu at (x, y) of the bubble, for a user's message or a reply.
    func open(x: Double, y: Double, isUser: Bool, regenerate: Regenerate, canDeleteVersion: Bool, isReading: Bool = false) {
        let menu: OpaquePointer = g_menu_new()
        g_menu_append(menu, isUser ? tr("Copy Message") : tr("Copy Reply"), "row.copy")
        if isUser { g_menu_append(menu, tr("Edit and Send Again"), "row.edit") }
        switch regenerate {
        case .none: break
        case .thisReply: g_menu_append(menu, tr("Regenerate Reply"), "row.regenerate")
        case .lastReply: g_menu_append(menu, tr("Regenerate Reply"), "win.regenerate")
        }
        if !isUser { g_menu_append(menu, isReading ? tr("Stop Reading") : tr("Read Aloud"), "row.read-aloud") }
        g_menu_append(menu, tr("Copy Chat as Markdown"), "win.copy-chat")
        if canDeleteVersion {
            // Apart from the rest: it deletes.
            let section: OpaquePointer = g_menu_new()
            g_menu_append(section, tr("Delete Version"), "row.delete-version")
            g_menu_append_section(menu, nil, UnsafeMutablePointer<GMenuModel>(section))
            g_object_unref(UnsafeMutableRawPointer(section))
        }
        gtk_popover_menu_set_menu_model(OpaquePointer(popover), UnsafeMutablePointer<GMenuModel>(menu))
        g_object_unref(UnsafeMutableRawPointer(menu))
        var point = GdkRectangle(x: Int32(x), y: Int32(y), width: 1, height: 1)
        gtk_popover_set_pointing_to(popover.cast(), &point)
        gtk_popover_popup(popover.cast())
    }

    func close() {
        if isOpen { gtk_popover_popdown(popover.cast()) }
    }
}
