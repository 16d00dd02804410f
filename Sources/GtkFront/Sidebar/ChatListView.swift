import Glibc
import AgentCore
import CGtk
import FoundationEssentials

/// The chats, newest first, in a `GtkListView`. The list model holds a page of chats and
/// grows by a page when the user scrolls near its end, so start-up costs the same with a
/// thousand chats as with forty. A row finds its chat by the id its item holds, never by
/// position. Selecting a row opens its chat. With no chats, a line says so in its place.
@MainActor
final class ChatListView {
    /// The list, or the placeholder while there are no chats.
    let widget: UnsafeMutablePointer<GtkWidget>
    let listView: UnsafeMutablePointer<GtkWidget>
    /// "No chats yet", in place of the list while the library is empty.
    let placeholder: UnsafeMutablePointer<GtkWidget>
    private let scroller: UnsafeMutablePointer<GtkWidget>
    private let store: OpaquePointer
    private let selection: OpaquePointer
    private let library: ChatLibrary
    private var rowsByItem: [UnsafeMutableRawPointer: ChatRow] = [:]
    private var settingSelection = false
    /// A chat was chosen in the list (a folded window then shows it).
    var onChatChosen: (() -> Void)?
    /// Takes the keyboard focus when the row holding it is removed (the composer does).
    var onFocusedRowRemoved: (() -> Void)?
    /// Whether there are no chats: the placeholder is shown.
    var isEmpty: Bool { library.chats.isEmpty }
    /// How many of the library's chats the list model holds.
    private(set) var shownCount = 0
    static let pageSize = 30

    init(library: ChatLibrary) {
        self.library = library
        store = gtk_string_list_new(nil)
        g_object_ref(UnsafeMutableRawPointer(store))
        selection = gtk_single_selection_new(store)
        gtk_single_selection_set_autoselect(selection, 0)
        gtk_single_selection_set_can_unselect(selection, 1)
        let factory: OpaquePointer = gtk_signal_list_item_factory_new()
        listView = gtk_list_view_new(selection, factory)
        GtkText.addClasses(listView, "navigation-sidebar")
        agent_accessible_set_label(listView, tr("Chats"))
        scroller = gtk_scrolled_window_new()
        gtk_scrolled_window_set_policy(scroller.opaque, GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC)
        gtk_scrolled_window_set_child(scroller.opaque, listView)
        placeholder = gtk_label_new(tr("No chats yet"))
        GtkText.addClasses(placeholder, "dim-label")
        gtk_label_set_wrap(placeholder.opaque, 1)
        gtk_label_set_justify(placeholder.opaque, GTK_JUSTIFY_CENTER)
        gtk_widget_set_valign(placeholder, GTK_ALIGN_START)
        gtk_widget_set_margin_top(placeholder, 24)
        widget = gtk_stack_new()
        // Only the child shown is measured: the placeholder sets no width for the list.
        gtk_stack_set_hhomogeneous(widget.opaque, 0)
        gtk_stack_set_vhomogeneous(widget.opaque, 0)
        gtk_stack_add_named(widget.opaque, scroller, "list")
        gtk_stack_add_named(widget.opaque, placeholder, "empty")
        gtk_widget_set_vexpand(widget, 1)
        connectFactory(UnsafeMutableRawPointer(factory))
        if let adjustment = gtk_scrolled_window_get_vadjustment(scroller.opaque) {
            Signals.connect(UnsafeMutableRawPointer(adjustment), "value-changed") { [weak self] in
                guard let self else { return }
                let value = gtk_adjustment_get_value(adjustment), page = gtk_adjustment_get_page_size(adjustment)
                if value + page >= gtk_adjustment_get_upper(adjustment) - page { showMore() }
            }
        }
        Signals.connect(UnsafeMutableRawPointer(selection), "selection-changed") { [weak self] (_: UInt32, _: UInt32) in
            self?.selectionChanged()
        }
        // Clicking the chat already selected still shows it (a folded window shows the list).
        Signals.connect(listView.raw, "activate") { [weak self] (_: UInt32) in self?.onChatChosen?() }
        reload()
    }

    /// Mirrors the library's list (a splice of the ids that changed) and selects the chat on screen.
    func reload() {
        let selected = library.selectedIndex ?? 0
        shownCount = min(library.chats.count, max(shownCount, Self.pageSize, selected + 1))
        let ids = library.chats.prefix(shownCount).map(\.id.uuidString)
        settingSelection = true
        StringLists.replace(store, with: ids) { removed in
            let going = Set(removed)
            if rowsByItem.values.contains(where: { row in
                row.chatID.map { going.contains($0.uuidString) } == true && FocusRescue.holdsFocus(rowOf: row.root)
            }) {
                onFocusedRowRemoved?()
            }
        }
        settingSelection = false
        gtk_stack_set_visible_child_name(widget.opaque, isEmpty ? "empty" : "list")
        // Rows kept show their chat's new title and time.
        for row in rowsByItem.values {
            if let id = row.chatID, let chat = library.chat(withID: id.uuidString) { row.bind(chat) }
        }
        showSelection()
    }

    /// Adds the next page of chats to the list model.
    func showMore() {
        guard shownCount < library.chats.count else { return }
        let more = library.chats[shownCount..<min(library.chats.count, shownCount + Self.pageSize)]
        StringLists.splice(store, at: shownCount, removing: 0, more.map(\.id.uuidString))
        shownCount += more.count
    }

    func showSelection() {
        settingSelection = true
        if let index = library.selectedIndex, index >= shownCount { reload() }
        gtk_single_selection_set_selected(selection, library.selectedIndex.map { guint($0) } ?? guint(GTK_INVALID_LIST_POSITION))
        settingSelection = false
    }

    /// The row showing chat `id`, if built (for tests).
    func row(for id: UUID) -> ChatRow? {
        rowsByItem.values.first { $0.chatID == id }
    }

    private func selectionChanged() {
        guard !settingSelection else { return }
        let position = Int(gtk_single_selection_get_selected(selection))
        guard library.chats.indices.contains(position) else { return }
        let id = library.chats[position].id
        if library.viewModel.chat?.id != id { library.open(id) }
        onChatChosen?()
    }

    private func connectFactory(_ factory: UnsafeMutableRawPointer) {
        Signals.connect(factory, "setup") { [weak self] item in
            guard let self, let item else { return }
            let row = ChatRow(onDelete: { [weak self] id in self?.library.delete(id) },
                              onChosen: { [weak self] in self?.onChatChosen?() })
            gtk_list_item_set_child(OpaquePointer(item), row.root)
            rowsByItem[item] = row
        }
        Signals.connect(factory, "bind") { [weak self] item in
            guard let self, let item, let row = rowsByItem[item],
                  let object = gtk_list_item_get_item(OpaquePointer(item)),
                  let string = gtk_string_object_get_string(OpaquePointer(object)),
                  let chat = library.chat(withID: String(cString: string)) else { return }
            row.bind(chat)
        }
        Signals.connect(factory, "teardown") { [weak self] item in
            guard let self, let item else { return }
            rowsByItem[item] = nil
        }
    }
}
