import AgentCore
import CGtk

/// The chat list and the chat as pages of a narrow (folded) window: which is shown, the
/// buttons each page's header has, and where the keyboard focus goes with them.
extension ChatWindow {
    /// Whether the window is narrow enough that the chat list and the chat are two pages.
    var isFolded: Bool { leaflet.map { adw_leaflet_get_folded(OpaquePointer($0)) != 0 } ?? false }

    /// Shows the chat (in a folded window, the chat list gives way to it).
    func showChat() {
        guard let leaflet else { return }
        adw_leaflet_set_visible_child(OpaquePointer(leaflet), chatPage.widget)
    }

    /// In a folded window the focus goes with the page shown — Back, Alt+Left, a swipe, a
    /// chat chosen — once the click or key that changed it is over (a chosen list item takes
    /// the focus on its way), unless the chat list's search has it (Ctrl+F shows the list's page).
    func followPageWithFocus() {
        guard isFolded else { return }
        AfterPaint.next(window) { [weak self] in
            guard let self else { return }
            if let sidebar, FocusRescue.holdsFocus(in: sidebar.searchEntry) { return }
            focusPageShown()
        }
    }

    /// Gives the keyboard focus to the page shown (also when the list row holding it is about
    /// to be removed, see `FocusRescue`): the chat list while it is the page shown (a folded
    /// window) — its new-chat button once the last chat goes and "No chats yet" takes the
    /// list's place — else the message field.
    func focusPageShown() {
        if isFolded, let leaflet, let sidebar, adw_leaflet_get_visible_child(OpaquePointer(leaflet)) == sidebarPage {
            if sidebar.chatList.isEmpty, let face = newChatButton?.face {
                gtk_widget_grab_focus(face)
            } else {
                gtk_widget_grab_focus(sidebar.chatList.listView)
            }
        } else {
            composer.input.focus()
        }
    }

    /// The chat list's search, holding `text` (GNOME Shell's "search in Agent").
    func search(for text: String) {
        if isFolded { showChats() }
        sidebar?.search(for: text)
        present()
    }

    /// Shows the chat list (in a folded window, the back button's page).
    func showChats() {
        guard let leaflet, let sidebarPage else { return }
        adw_leaflet_set_visible_child(OpaquePointer(leaflet), sidebarPage)
    }

    /// In a folded window each page has all the window's buttons; unfolded, the sidebar's
    /// header has none at its end and the chat's none at its start.
    func foldChanged() {
        let folded = isFolded
        gtk_widget_set_visible(chatPage.backButton, folded ? 1 : 0)
        if let sidebarHeader { adw_header_bar_set_show_end_title_buttons(OpaquePointer(sidebarHeader), folded ? 1 : 0) }
        adw_header_bar_set_show_start_title_buttons(OpaquePointer(chatPage.headerBar), folded ? 1 : 0)
    }
}
