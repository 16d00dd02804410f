import AgentCore
import CGtk

/// The left pane: a search bar over the chat list, which gives way to search results while
/// there is a query.
@MainActor
final class SidebarView {
    let widget: UnsafeMutablePointer<GtkWidget>
    let searchBar: UnsafeMutablePointer<GtkWidget>
    let searchEntry: UnsafeMutablePointer<GtkWidget>
    /// The header's search button: pressed while the search bar is open, and opening or
    /// closing it (the search field then takes the keys).
    let searchButton: UnsafeMutablePointer<GtkWidget>
    let chatList: ChatListView
    /// The search results, made at the first search: most starts never search.
    private(set) lazy var results: SearchResultsView = {
        let results = SearchResultsView(library: library)
        gtk_stack_add_named(stack.opaque, results.widget, "results")
        results.onFocusedRowRemoved = { [weak self] in self?.onFocusedRowRemoved?() }
        results.onOpened = { [weak self] in
            self?.closeSearch()
            self?.onChatChosen?()
            self?.onSearchResultOpened?()
        }
        return results
    }()
    private let stack: UnsafeMutablePointer<GtkWidget>
    private let library: ChatLibrary
    /// A chat was chosen, from the list or the search results (a folded window then shows it).
    var onChatChosen: (() -> Void)? {
        didSet { chatList.onChatChosen = onChatChosen }
    }
    /// A search result was opened, and the search closed with the keyboard focus in it.
    var onSearchResultOpened: (() -> Void)?
    /// Takes the keyboard focus when the list row holding it is about to be removed.
    var onFocusedRowRemoved: (() -> Void)? {
        didSet { chatList.onFocusedRowRemoved = onFocusedRowRemoved }
    }

    init(library: ChatLibrary) {
        self.library = library
        chatList = ChatListView(library: library)
        searchEntry = gtk_search_entry_new()
        gtk_widget_set_hexpand(searchEntry, 1)
        agent_accessible_set_label(searchEntry, tr("Search chats"))
        searchBar = gtk_search_bar_new()
        gtk_search_bar_set_child(searchBar.opaque, searchEntry)
        gtk_search_bar_connect_entry(searchBar.opaque, searchEntry.opaque)
        gtk_search_bar_set_show_close_button(searchBar.opaque, 0)
        searchButton = gtk_toggle_button_new()
        gtk_button_set_icon_name(searchButton.cast(), "system-search-symbolic")
        agent_widget_set_tooltip_text(searchButton, tr("Search Chats"))
        agent_accessible_set_label(searchButton, tr("Search Chats"))
        g_object_bind_property(searchBar.cast(), "search-mode-enabled", searchButton.cast(), "active",
                               GBindingFlags(rawValue: G_BINDING_BIDIRECTIONAL.rawValue | G_BINDING_SYNC_CREATE.rawValue))
        stack = gtk_stack_new()
        // Only the page shown is measured.
        gtk_stack_set_hhomogeneous(stack.opaque, 0)
        gtk_stack_set_vhomogeneous(stack.opaque, 0)
        gtk_stack_add_named(stack.opaque, chatList.widget, "chats")
        widget = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0)
        GtkText.addClasses(widget, "sidebar")
        gtk_widget_set_size_request(widget, 220, -1)
        gtk_box_append(widget.cast(), searchBar)
        gtk_box_append(widget.cast(), stack)

        Signals.connect(searchEntry.raw, "search-changed") { [weak self] in
            guard let self else { return }
            library.search(String(cString: gtk_editable_get_text(searchEntry.opaque)))
        }
        Signals.connect(searchEntry.raw, "activate") { [weak self] in self?.results.open(0) }
        // Down goes from the field to the results, as in GNOME's search boxes.
        if let keys = gtk_event_controller_key_new() {
            Signals.connectKeyPressed(UnsafeMutableRawPointer(keys)) { [weak self] keyval, state in
                guard let self, keyval == UInt32(GDK_KEY_Down) || keyval == UInt32(GDK_KEY_KP_Down),
                      state.rawValue & Signals.keyModifiers == 0, !library.searchQuery.isEmpty else { return false }
                return gtk_widget_child_focus(results.listBox, GTK_DIR_TAB_FORWARD) != 0
            }
            gtk_widget_add_controller(searchEntry, keys)
        }
        Signals.connect(searchEntry.raw, "stop-search") { [weak self] in self?.closeSearch() }
        Signals.connect(searchBar.raw, "notify::search-mode-enabled") { [weak self] (_: UnsafeMutableRawPointer?) in
            guard let self, gtk_search_bar_get_search_mode(searchBar.opaque) == 0 else { return }
            gtk_editable_set_text(searchEntry.opaque, "")
            library.search("")
        }
        library.observe { [weak self] change in self?.apply(change) }
    }

    /// Ctrl+F: opens the search bar, or takes the keyboard back to it when it is open
    /// elsewhere; closes it from its own field.
    func toggleSearch() {
        guard gtk_search_bar_get_search_mode(searchBar.opaque) != 0 else {
            gtk_search_bar_set_search_mode(searchBar.opaque, 1)
            gtk_widget_grab_focus(searchEntry)
            return
        }
        if FocusRescue.holdsFocus(in: searchEntry) { closeSearch() } else { gtk_widget_grab_focus(searchEntry) }
    }

    /// Opens the search with `text` in it (GNOME Shell's "search in Agent").
    func search(for text: String) {
        gtk_search_bar_set_search_mode(searchBar.opaque, 1)
        gtk_editable_set_text(searchEntry.opaque, text)
        gtk_editable_set_position(searchEntry.opaque, -1)
        gtk_widget_grab_focus(searchEntry)
    }

    func closeSearch() {
        gtk_search_bar_set_search_mode(searchBar.opaque, 0)
    }

    private func apply(_ change: ChatLibrary.Change) {
        switch change {
        case .chats: chatList.reload()
        case .selection: chatList.showSelection()
        case .searchResults:
            results.reload()
            // A query of spaces alone keeps the chats, not an empty search's "No Results Found".
            gtk_stack_set_visible_child_name(stack.opaque, library.isSearching ? "results" : "chats")
        case .undo, .presets, .presetUsed: break
        }
    }
}
