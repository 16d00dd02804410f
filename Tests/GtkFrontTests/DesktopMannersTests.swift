import AgentCore
import CGtk
import Foundation
@testable import GtkFront
import TestSupport
import Testing

extension GtkSuites {
    /// How the window fits the desktop: dark or light as the desktop prefers, a notification
    /// for a reply finished in the background, the size it was left at, a message's menu,
    /// a window that folds for a phone, About.
    @MainActor
    @Suite("Desktop manners (GTK under Xvfb)", .serialized)
    struct DesktopMannersTests {
        let server = TestServer.shared

        func launch(_ scenario: String, settings: SettingsStore? = nil, store: ChatStore? = nil) async throws -> (AgentApplication, ChatWindow) {
            let preferences = settings.map { settings in
                AppPreferences(settings: settings, secrets: SecretStore()) { [server] in
                    ChatConnection(endpoint: ChatEndpoint(serverURL: server.url(scenario), model: "m"))
                }
            }
            let app = try GtkTestHarness.launch(ChatEndpoint(serverURL: server.url(scenario), model: "m"), store: store,
                                                settings: settings, preferences: preferences)
            return try await GtkTestHarness.shown(app)
        }

        @Test("Dark or light as the desktop prefers (the settings portal, read by libadwaita), code blocks included, and when it changes")
        func followsTheDesktopColorScheme() async throws {
            let (app, window) = try await launch("markdown")
            defer { GtkTestHarness.close(app) }
            let portal = try #require(GtkTestHarness.portal, "the tests need a D-Bus session")
            let style = adw_style_manager_get_default()
            defer { _ = try? portal.mockCall("SetColorScheme", ["0"]) }
            #expect(adw_style_manager_get_system_supports_color_schemes(style) != 0, "libadwaita found the portal")
            #expect(adw_style_manager_get_dark(style) == 0)
            try await GtkTestHarness.send("Show me code", in: window, settling: true)
            let row = try #require(window.transcript.boundRow(for: window.viewModel.conversation[1].id))
            let code = try #require(row.reply.codeBlocks.first)
            #expect(code.styleSchemeID == "Adwaita")

            try portal.mockCall("SetColorScheme", ["1"])
            try await GtkTestHarness.pump(until: { adw_style_manager_get_dark(style) != 0 }, "the window to turn dark")
            #expect(code.styleSchemeID == "Adwaita-dark", "code already on screen turns dark too")
            try portal.mockCall("SetColorScheme", ["2"])
            try await GtkTestHarness.pump(until: { adw_style_manager_get_dark(style) == 0 }, "the change to light")
            #expect(code.styleSchemeID == "Adwaita")
        }

        @Test("A reply that finishes in the background: a notification (its text as text, never markup), withdrawn on return")
        func notificationWhenInTheBackground() async throws {
            let session = try #require(DBusMock.sessionAddress, "the tests need a D-Bus session")
            let daemon = try DBusMock(template: "notification_daemon", busName: "org.freedesktop.Notifications",
                                      objectPath: "/org/freedesktop/Notifications", address: session)
            // The first reply streams to its end; the second waits at the gate after its first word.
            let scenario = server.gate(passing: 1, reply: "markup")
            let (app, window) = try await launch(scenario)
            defer { GtkTestHarness.close(app) }
            try await GtkTestHarness.send("Are you there?", in: window, settling: true)
            #expect(!(try daemon.mockCall("GetCalls")).contains("Notify"), "no notification while the user is looking")

            // The user sends, then goes to another window while the reply streams.
            let other: UnsafeMutablePointer<GtkWidget> = gtk_window_new()
            defer { gtk_window_destroy(other.cast()) }
            try await Xdo.type("Tell me when you are done")
            try await Xdo.key("Return")
            let model = window.viewModel
            try await GtkTestHarness.pump(until: { model.conversation.count == 4 && !model.conversation[3].text.isEmpty },
                                          "the reply to start")
            gtk_window_present(other.cast())
            try await GtkTestHarness.pump(until: { GtkTestHarness.isMapped(other) }, "another window")
            try await Xdo.focus(other)
            #expect(model.isSending, "the reply is still streaming")
            try await server.release(scenario)
            try await GtkTestHarness.pump(until: { (try? daemon.mockCall("GetCalls"))?.contains("Notify") == true }, "the notification")
            let calls = try daemon.mockCall("GetCalls")
            #expect(calls.contains("Reply from test-model"))
            #expect(calls.contains("Use &lt;b&gt;bold&lt;/b&gt; &amp; &lt;i&gt;care&lt;/i&gt; here"), "\(calls)")

            try await Xdo.focus(window.window)
            try await GtkTestHarness.pump(until: { (try? daemon.mockCall("GetCalls"))?.contains("CloseNotification") == true },
                                          "the notification to be withdrawn")
        }

        @Test("The window opens at the size it was closed at (GSettings)")
        func windowSizeIsRemembered() async throws {
            let settings = try TestTools.settings()
            var shown = (width: Int32(0), height: Int32(0))
            do {
                let (app, window) = try await launch("echo", settings: settings)
                defer { GtkTestHarness.close(app) }
                try await Xdo.resize(window.window, width: 900, height: 640)
                shown = (gtk_widget_get_width(window.window), gtk_widget_get_height(window.window))
                try await Xdo.key("ctrl+w")
                try await GtkTestHarness.pump(until: { app.window == nil }, "Ctrl+W to close the window")
                #expect(settings.root.int("window-width") == 900 && settings.root.int("window-height") == 640)
                #expect(settings.root.bool("window-maximized") == false)
            }
            let (app, window) = try await launch("echo", settings: settings)
            defer { GtkTestHarness.close(app) }
            try await GtkTestHarness.pump(for: .milliseconds(100))
            #expect(gtk_widget_get_width(window.window) == shown.width && gtk_widget_get_height(window.window) == shown.height,
                    "reopened at \(gtk_widget_get_width(window.window))×\(gtk_widget_get_height(window.window)), closed at \(shown)")
        }

        @Test("Tokens per second under a reply; right-click opens its menu, whose Copy Reply copies it")
        func usageAndContextMenu() async throws {
            let (app, window) = try await launch("emptychoices")
            defer { GtkTestHarness.close(app) }
            try await GtkTestHarness.send("Count my tokens", in: window, settling: true)
            let reply = window.viewModel.conversation[1]
            #expect(reply.usage?.completionTokens == 2 && reply.usage?.promptTokens == 3)
            let row = try #require(window.transcript.boundRow(for: reply.id))
            #expect(GtkTestHarness.isVisible(row.usageLabel))
            let usage = GtkTestHarness.label(row.usageLabel)
            #expect(usage.hasPrefix("2 tokens · ") && usage.hasSuffix(" tokens/s"), "\(usage)")

            #expect(!row.menu.hasPopover, "no popover until the menu first opens")
            try await Xdo.click(row.bubble, button: 3, x: 12, y: 12)
            try await GtkTestHarness.pump(until: { row.menu.isOpen && GtkTestHarness.isMapped(row.menu.popover) }, "the menu")
            // The row's widgets go with its list item: hold the popover to look at it after.
            let popover = row.menu.popover
            g_object_ref(UnsafeMutableRawPointer(popover))
            defer { g_object_unref(UnsafeMutableRawPointer(popover)) }
            #expect(row.menu.itemLabels == ["Copy Reply", "Regenerate Reply", "Read Aloud", "Copy Chat as Markdown"])
            let shortcuts = GtkText.labels(in: row.menu.popover).filter { $0.hasPrefix("Shift+Ctrl+") || $0.hasPrefix("Ctrl+") }
            #expect(shortcuts.sorted() == ["Shift+Ctrl+C", "Shift+Ctrl+R"], "the last reply's Regenerate shows its shortcut: \(shortcuts)")
            let copy = try #require(GtkTestHarness.mappedLabel("Copy Reply", in: row.menu.popover))
            try await Xdo.click(copy)
            #expect(try await GtkTestHarness.readClipboard(when: { $0 == reply.text }) == reply.text)
            try await GtkTestHarness.pump(until: { window.toasts.shownTexts.contains("Copied") }, "the “Copied” toast")
            try await GtkTestHarness.pump(until: { !row.menu.isOpen }, "the menu to close")
        }

        @Test("A right click on a link in a reply opens the link's own menu, not the message's: Copy Link Address copies the address")
        func linkKeepsItsMenu() async throws {
            let (app, window) = try await launch("link")
            defer { GtkTestHarness.close(app) }
            try await GtkTestHarness.send("Where do I read more?", in: window, settling: true)
            let row = try #require(window.transcript.boundRow(for: window.viewModel.conversation[1].id))
            let label = try #require(GtkTestHarness.labelWidgets(in: row.bubble).first { GtkTestHarness.label($0).contains("the manual") })
            // The middle of the link's words, where the label's layout puts them.
            let text = GtkTestHarness.label(label)
            let words = try #require(text.range(of: "the manual"))
            let middle = text.utf8.distance(from: text.startIndex, to: words.lowerBound) + "the manual".utf8.count / 2
            var place = PangoRectangle()
            pango_layout_index_to_pos(gtk_label_get_layout(label.opaque), Int32(middle), &place)
            var offsetX: Int32 = 0, offsetY: Int32 = 0
            gtk_label_get_layout_offsets(label.opaque, &offsetX, &offsetY)
            try await Xdo.click(label, button: 3, x: Double(offsetX) + Double(place.x) / Double(PANGO_SCALE),
                                y: Double(offsetY) + Double(place.y + place.height / 2) / Double(PANGO_SCALE))
            var linkMenu: UnsafeMutablePointer<GtkWidget>?
            try await GtkTestHarness.pump(until: {
                linkMenu = WidgetTree(label).first { $0.isA(gtk_popover_menu_get_type()) && GtkTestHarness.isMapped($0) }
                return linkMenu != nil
            }, "the link's menu")
            #expect(!row.menu.isOpen, "not the message's menu")
            let menu = try #require(linkMenu)
            let copyLink = try #require(GtkTestHarness.mappedLabel("Copy Link Address", in: menu))
            try await Xdo.click(copyLink)
            #expect(try await GtkTestHarness.readClipboard(when: { $0 == "https://example.org/manual" }) == "https://example.org/manual")

            try await Xdo.click(row.bubble, button: 3, x: 12, y: 12)
            try await GtkTestHarness.pump(until: { row.menu.isOpen && GtkTestHarness.isMapped(row.menu.popover) }, "the message's menu beside the link")
            try await Xdo.key("Escape")
            try await GtkTestHarness.pump(until: { !row.menu.isOpen }, "the menu closed")
        }

        @Test("Shift+F10 or the Menu key in a message opens its menu, not the text's own; Escape closes it")
        func menuFromTheKeyboard() async throws {
            let (app, window) = try await launch("emptychoices")
            defer { GtkTestHarness.close(app) }
            try await GtkTestHarness.send("Count my tokens", in: window, settling: true)
            for (index, key) in [(1, "shift+F10"), (0, "Menu")] {
                let row = try #require(window.transcript.boundRow(for: window.viewModel.conversation[index].id))
                row.focus(.row)
                try await GtkTestHarness.pump(until: { FocusRescue.holdsFocus(rowOf: row.root) }, "the focus in the message")
                try await Xdo.key(key)
                try await GtkTestHarness.pump(until: { row.menu.isOpen && GtkTestHarness.isMapped(row.menu.popover) }, "the menu from \(key)")
                let expected = index == 1 ? ["Copy Reply", "Regenerate Reply", "Read Aloud", "Copy Chat as Markdown"]
                    : ["Copy Message", "Edit and Send Again", "Copy Chat as Markdown"]
                #expect(row.menu.itemLabels == expected)
                try await Xdo.key("Escape")
                try await GtkTestHarness.pump(until: { !row.menu.isOpen }, "the menu closed")
            }
        }

        @Test("A reply's buttons, built before they were on screen, keep their tooltips: shown when the pointer rests on one")
        func tooltipsOfARowBuiltOffScreen() async throws {
            let (app, window) = try await launch("emptychoices")
            defer { GtkTestHarness.close(app) }
            try await GtkTestHarness.send("Count my tokens", in: window, settling: true)
            let row = try #require(window.transcript.boundRow(for: window.viewModel.conversation[1].id))
            let copy = row.copyButton
            #expect(GtkTestHarness.isVisible(copy), "set while hidden, shown again")
            #expect(gtk_widget_get_tooltip_text(copy).map { String(cString: $0) } == "Copy Reply")
            #expect(gtk_widget_get_has_tooltip(copy) != 0)
            // GtkWidget::query-tooltip(x, y, keyboard_mode, tooltip): noted, and left to GTK's own handler.
            let asked = UnsafeMutablePointer<Bool>.allocate(capacity: 1)
            asked.initialize(to: false)
            defer { asked.deallocate() }
            let noted: @convention(c) (gpointer?, Int32, Int32, gboolean, gpointer?, gpointer?) -> gboolean = { _, _, _, _, _, data in
                data?.assumingMemoryBound(to: Bool.self).pointee = true
                return 0
            }
            let handler = g_signal_connect_data(copy, "query-tooltip", unsafeBitCast(noted, to: GCallback.self), asked, nil,
                                                GConnectFlags(rawValue: 0))
            defer { g_signal_handler_disconnect(copy, handler) }
            try await Xdo.hover(copy)
            try await GtkTestHarness.pump(until: { asked.pointee }, "GTK asking the button for its tooltip")
        }

        @Test("A message's menu open while its row goes away (the reply fails and is removed): nothing uses freed memory (scripts/sanitize address checks)")
        func rowRemovedWhileItsMenuIsOpen() async throws {
            let (app, window) = try await launch("late500-1500")
            defer { GtkTestHarness.close(app) }
            try await Xdo.type("Open the menu of the reply you are waiting for")
            try await Xdo.key("Return")
            let model = window.viewModel
            try await GtkTestHarness.pump(until: { model.conversation.count == 2 }, "the reply's placeholder")
            try await GtkTestHarness.settle(window)
            let replyID = model.conversation[1].id
            let row = try #require(window.transcript.boundRow(for: replyID))
            #expect(!row.menu.hasPopover, "no popover until the menu first opens")
            try await Xdo.click(row.bubble, button: 3, x: 12, y: 12)
            try await GtkTestHarness.pump(until: { row.menu.isOpen && GtkTestHarness.isMapped(row.menu.popover) }, "the menu")
            // The row's widgets go with its list item: hold the popover to look at it after.
            let popover = row.menu.popover
            g_object_ref(UnsafeMutableRawPointer(popover))
            defer { g_object_unref(UnsafeMutableRawPointer(popover)) }
            // The server fails: the empty reply — the row whose menu is open — is removed.
            try await GtkTestHarness.pump(until: { model.conversation.count == 1 && window.alert != nil }, timeout: .seconds(10),
                                          "the reply to fail and go")
            try await GtkTestHarness.settle(window)
            #expect(!model.conversation.messages.contains { $0.id == replyID })
            #expect(window.transcript.boundRow(for: replyID) == nil)
            #expect(gtk_widget_get_mapped(popover) == 0)
            GtkTestHarness.close(app)
            try await GtkTestHarness.pump(for: .milliseconds(100))
        }

        @Test("Narrow as a phone (360×640): the chats and the chat fold into two pages, with a back button")
        func foldsWhenNarrow() async throws {
            let file = FileManager.default.temporaryDirectory.appending(path: "agent-fold-\(UUID())/chats.sqlite")
            let (app, window) = try await launch("echo", store: try ChatStore(file: file))
            defer { GtkTestHarness.close(app) }
            try await GtkTestHarness.send("A chat to let go", in: window, settling: true)
            try await Xdo.key("ctrl+n")
            try await GtkTestHarness.pump(until: { window.viewModel.conversation.count == 0 }, "a new chat")
            try await GtkTestHarness.send("A chat to come back to", in: window, settling: true)
            #expect(!window.isFolded)
            #expect(!GtkTestHarness.isVisible(window.chatPage.backButton))

            try await Xdo.resize(window.window, width: 360, height: 640)
            try await GtkTestHarness.pump(until: { window.isFolded }, "the window to fold")
            #expect(GtkTestHarness.isVisible(window.chatPage.backButton))
            #expect(GtkTestHarness.isMapped(window.composer.widget), "the chat is the page shown")
            #expect(gtk_widget_get_width(window.chatPage.widget) <= 360 && GtkTestHarness.isMapped(window.composer.sendButton),
                    "the chat fits: \(gtk_widget_get_width(window.chatPage.widget)) px in a window of \(gtk_widget_get_width(window.window))")

            // The fold slides its pages into place: click once they are there.
            try await GtkTestHarness.pump(for: .milliseconds(400))
            try await Xdo.click(window.chatPage.backButton)
            let sidebar = try #require(window.sidebar)
            try await GtkTestHarness.pump(until: { GtkTestHarness.isMapped(sidebar.widget) && !GtkTestHarness.isMapped(window.composer.widget) },
                                          "the chat list")
            try await GtkTestHarness.pump(until: { FocusRescue.holdsFocus(in: sidebar.chatList.listView) }, "Back to take the focus into the chat list")
            // Deleting a chat from the list: the focus (on its delete button) stays on the page
            // shown, in the list — not in the hidden chat's message field.
            let library = try #require(window.library)
            let goner = try #require(library.chats.first { $0.title == "A chat to let go" })
            try await Xdo.click(try #require(sidebar.chatList.row(for: goner.id)).deleteButton)
            try await GtkTestHarness.pump(until: { library.chats.count == 1 }, "the chat deleted")
            let focus = try #require(gtk_root_get_focus(gtk_widget_get_root(window.window)))
            #expect(gtk_widget_is_ancestor(focus, sidebar.chatList.listView) != 0, "the focus is in the chat list")
            let chat = try #require(library.chats.first)
            let chatRow = try #require(sidebar.chatList.row(for: chat.id))
            try await Xdo.click(chatRow.titleLabel)
            try await GtkTestHarness.pump(until: { GtkTestHarness.isMapped(window.composer.widget) }, "the chat again")
            try await GtkTestHarness.pump(until: { FocusRescue.holdsFocus(in: window.composer.input.textView) }, "the focus in the message field")
            // Alt+Left, libadwaita's way back: the focus goes along too.
            try await GtkTestHarness.pump(for: .milliseconds(400))
            try await Xdo.key("alt+Left")
            try await GtkTestHarness.pump(until: { GtkTestHarness.isMapped(sidebar.widget) && !GtkTestHarness.isMapped(window.composer.widget) },
                                          "the chat list by Alt+Left")
            try await GtkTestHarness.pump(until: { FocusRescue.holdsFocus(in: sidebar.chatList.listView) }, "the focus in the chat list")
            try await Xdo.click(try #require(sidebar.chatList.row(for: chat.id)).titleLabel)
            try await GtkTestHarness.pump(until: { FocusRescue.holdsFocus(in: window.composer.input.textView) }, "the chat and its field again")
            // Ctrl+F from the chat: the list's page with the search, the focus staying in it.
            try await GtkTestHarness.pump(for: .milliseconds(400))
            try await Xdo.key("ctrl+f")
            try await GtkTestHarness.pump(until: { !GtkTestHarness.isMapped(window.composer.widget) }, "the chat list for the search")
            try await GtkTestHarness.pump(for: .milliseconds(100))
            try await GtkTestHarness.pump(until: { FocusRescue.holdsFocus(in: sidebar.searchEntry) }, "the focus in the search entry")
            try await Xdo.key("Escape")
            try await Xdo.click(try #require(sidebar.chatList.row(for: chat.id)).titleLabel)
            try await GtkTestHarness.pump(until: { FocusRescue.holdsFocus(in: window.composer.input.textView) }, "the chat once more")

            // The last chat deleted from the list: "No chats yet" takes the list's place and
            // the focus goes to the new-chat button, on the page shown.
            try await GtkTestHarness.pump(for: .milliseconds(400))
            try await Xdo.click(window.chatPage.backButton)
            try await GtkTestHarness.pump(until: { GtkTestHarness.isMapped(sidebar.widget) && !GtkTestHarness.isMapped(window.composer.widget) },
                                          "the chat list again")
            try await Xdo.click(try #require(sidebar.chatList.row(for: chat.id)).deleteButton)
            try await GtkTestHarness.pump(until: { library.chats.isEmpty }, "the last chat deleted")
            #expect(GtkTestHarness.isMapped(sidebar.chatList.placeholder))
            let face = try #require(window.newChatButton?.face)
            let lastFocus = gtk_root_get_focus(gtk_widget_get_root(window.window))
            #expect(lastFocus.map { $0 == face || gtk_widget_is_ancestor($0, face) != 0 } == true,
                    "the focus is on the new-chat button, not lost with the list")

            try await Xdo.resize(window.window, width: 1000, height: 700)
            try await GtkTestHarness.pump(until: { !window.isFolded }, "the window to unfold")
            #expect(GtkTestHarness.isMapped(sidebar.widget) && GtkTestHarness.isMapped(window.composer.widget))
            #expect(!GtkTestHarness.isVisible(window.chatPage.backButton))
        }

        @Test("About Agent (main menu): version, licence, website, and debug information for a bug report")
        func about() async throws {
            let (app, window) = try await launch("echo")
            defer { GtkTestHarness.close(app) }
            try await GtkTestHarness.chooseMenuItem("About Agent", from: window.mainMenuButton)
            try await GtkTestHarness.pump(until: { window.aboutWindow.map(GtkTestHarness.isMapped) == true }, "the About window")
            let about = try #require(window.aboutWindow)
            #expect(String(cString: adw_about_window_get_version(OpaquePointer(about))) == AppIdentity.version)
            #expect(adw_about_window_get_license_type(OpaquePointer(about)) == GTK_LICENSE_MIT_X11)
            #expect(String(cString: adw_about_window_get_website(OpaquePointer(about))) == AboutWindow.website)
            let debug = String(cString: adw_about_window_get_debug_info(OpaquePointer(about)))
            #expect(debug.contains("GTK 4.") && debug.contains("libadwaita 1."), "\(debug)")
            #expect(debug.contains("Chats go to: m · 127.0.0.1"))
            try await GtkTestHarness.pump(until: {
                String(cString: adw_about_window_get_debug_info(OpaquePointer(about))).contains("llama-server:")
            }, "llama-server's version")
            gtk_window_destroy(about.cast())
        }
    }
}
