import AgentCore
import CGtk
import Foundation
@testable import GtkFront
import TestSupport
import Testing

extension GtkSuites {
    /// How the window fits the desktop: the dark/light preference from the settings portal,
    /// a notification for a reply finished in the background, the size it was left at,
    /// tokens per second under a reply, a context menu on a message.
    @MainActor
    @Suite("Desktop manners (GTK under Xvfb)", .serialized)
    struct DesktopMannersTests {
        let server = TestServer.shared

        func launch(_ scenario: String, settings: SettingsStore? = nil) throws -> (AgentApplication, ChatWindow) {
            let preferences = settings.map { settings in
                AppPreferences(settings: settings, secrets: SecretStore()) {
                    ChatConnection(endpoint: ChatEndpoint(serverURL: server.url(scenario), model: "m"))
                }
            }
            let app = try GtkTestHarness.launch(ChatEndpoint(serverURL: server.url(scenario), model: "m"), preferences: preferences)
            return (app, try #require(app.window))
        }

        func send(_ text: String, in window: ChatWindow) async throws {
            window.composer.input.enter(text)
            window.composer.input.submit()
            try await GtkTestHarness.pump(until: { !window.viewModel.isSending }, "the reply to “\(text)”")
            try await GtkTestHarness.pump(for: .milliseconds(50))
        }

        @Test("Dark or light as the desktop prefers (settings portal), code blocks included, and when it changes")
        func followsTheDesktopColorScheme() async throws {
            try GtkTestHarness.requireDisplay()
            let bus = try PrivateBus(activation: false)
            let portal = try DBusMock(template: PrivateBus.template("portal_settings_template.py"),
                                      busName: "org.freedesktop.portal.Desktop", objectPath: "/org/freedesktop/portal/desktop",
                                      address: bus.address, parameters: ["color-scheme": 1])
            var error: UnsafeMutablePointer<GError>?
            let flags = GDBusConnectionFlags(rawValue: G_DBUS_CONNECTION_FLAGS_AUTHENTICATION_CLIENT.rawValue
                                             | G_DBUS_CONNECTION_FLAGS_MESSAGE_BUS_CONNECTION.rawValue)
            let connection = try #require(g_dbus_connection_new_for_address_sync(bus.address, flags, nil, nil, &error))
            defer {
                g_object_unref(UnsafeMutableRawPointer(connection))
                agent_set_prefer_dark(0)
            }
            agent_set_prefer_dark(0)
            let code = CodeBlockView(language: "swift", code: "let answer = 42") { _, _ in }
            #expect(code.styleSchemeID == "Adwaita")

            let appearance = Appearance(connection: connection)
            try await GtkTestHarness.pump(until: { agent_prefers_dark() != 0 }, "the dark preference to be read")
            #expect(appearance.colorScheme == 1)
            #expect(code.styleSchemeID == "Adwaita-dark", "code already on screen turns dark too")
            #expect(CodeBlockView(language: nil, code: "x") { _, _ in }.styleSchemeID == "Adwaita-dark")

            try portal.mockCall("SetColorScheme", ["2"])
            try await GtkTestHarness.pump(until: { agent_prefers_dark() == 0 }, "the change to light")
            #expect(appearance.colorScheme == 2)
            #expect(code.styleSchemeID == "Adwaita")
        }

        @Test("A reply that finishes while the window is in the background: a notification, withdrawn on return")
        func notificationWhenInTheBackground() async throws {
            let session = try #require(DBusMock.sessionAddress, "the tests need a D-Bus session")
            let daemon = try DBusMock(template: "notification_daemon", busName: "org.freedesktop.Notifications",
                                      objectPath: "/org/freedesktop/Notifications", address: session)
            let (app, window) = try launch("echo")
            defer { GtkTestHarness.close(app) }
            try await GtkTestHarness.pump(until: { gtk_widget_get_mapped(window.window) != 0 }, "the window")

            try await Xdo.focus(window.window)
            try await send("Are you there?", in: window)
            #expect(!(try daemon.mockCall("GetCalls")).contains("Notify"), "no notification while the user is looking")

            let other: UnsafeMutablePointer<GtkWidget> = gtk_window_new()
            defer { gtk_window_destroy(other.cast()) }
            gtk_window_present(other.cast())
            try await GtkTestHarness.pump(until: { gtk_widget_get_mapped(other) != 0 }, "another window")
            try await Xdo.focus(other)
            #expect(gtk_window_is_active(window.window.cast()) == 0)
            try await send("Tell me when you are done", in: window)
            try await GtkTestHarness.pump(until: { (try? daemon.mockCall("GetCalls"))?.contains("Notify") == true }, "the notification")
            let calls = try daemon.mockCall("GetCalls")
            #expect(calls.contains("Reply from test-model"))
            #expect(calls.contains("Echo: Tell me when you are done (3 messages)"))

            try await Xdo.focus(window.window)
            try await GtkTestHarness.pump(until: { (try? daemon.mockCall("GetCalls"))?.contains("CloseNotification") == true },
                                          "the notification to be withdrawn")
        }

        @Test("The window opens at the size it was closed at")
        func windowSizeIsRemembered() async throws {
            let settings = SettingsStore(file: TestTools.temporarySettingsFile())
            var shown = (width: 0, height: 0)
            do {
                let (app, window) = try launch("echo", settings: settings)
                try await GtkTestHarness.pump(until: { gtk_widget_get_mapped(window.window) != 0 }, "the window")
                // As a user drags its corner: the X server resizes it.
                let xid = agent_window_xid(window.window)
                let resize = Process()
                resize.executableURL = URL(filePath: "/usr/bin/xdotool")
                resize.arguments = ["windowsize", "--sync", String(xid), "900", "640"]
                try resize.run()
                try await GtkTestHarness.pump(until: { !resize.isRunning }, "xdotool windowsize")
                try await GtkTestHarness.pump(until: { gtk_widget_get_width(window.window) < 1000 }, "the new size")
                try await GtkTestHarness.pump(for: .milliseconds(100))
                shown = (Int(gtk_widget_get_width(window.window)), Int(gtk_widget_get_height(window.window)))
                gtk_window_close(window.window.cast())
                try await GtkTestHarness.pump(for: .milliseconds(50))
                let saved = try #require(settings.windowSize)
                #expect(saved.width == 900 && saved.height == 640, "the size the user gave it: \(saved)")
                #expect(settings.windowMaximized == false)
                _ = app
            }
            let (app, window) = try launch("echo", settings: settings)
            defer { GtkTestHarness.close(app) }
            try await GtkTestHarness.pump(until: { gtk_widget_get_mapped(window.window) != 0 }, "the window again")
            try await GtkTestHarness.pump(for: .milliseconds(100))
            #expect(Int(gtk_widget_get_width(window.window)) == shown.width && Int(gtk_widget_get_height(window.window)) == shown.height,
                    "reopened at \(gtk_widget_get_width(window.window))×\(gtk_widget_get_height(window.window)), closed at \(shown)")
        }

        @Test("Tokens per second under a finished reply; right-click gives its menu, whose Copy copies it; Copy Chat copies all")
        func usageAndContextMenu() async throws {
            let (app, window) = try launch("emptychoices")
            defer { GtkTestHarness.close(app) }
            try await GtkTestHarness.pump(until: { gtk_widget_get_mapped(window.window) != 0 }, "the window")
            try await send("Count my tokens", in: window)
            let reply = window.viewModel.conversation[1]
            #expect(reply.usage?.completionTokens == 2 && reply.usage?.promptTokens == 3)
            let row = try #require(window.transcript.boundRow(for: reply.id))
            #expect(GtkTestHarness.isVisible(row.usageLabel))
            let usage = String(cString: gtk_label_get_text(row.usageLabel.opaque))
            #expect(usage.hasPrefix("2 tokens · ") && usage.hasSuffix(" tokens/s"), "\(usage)")

            try await Xdo.click(row.bubble, button: 3)
            try await GtkTestHarness.pump(until: { row.contextMenu != nil }, "the context menu")
            let menu = try #require(row.contextMenu)
            try await GtkTestHarness.pump(until: { gtk_widget_get_mapped(menu) != 0 }, "the menu on screen")
            let model = try #require(gtk_popover_menu_get_menu_model(OpaquePointer(menu)))
            let labels = (0..<g_menu_model_get_n_items(model)).compactMap { index -> String? in
                guard let value = g_menu_model_get_item_attribute_value(model, index, "label", nil) else { return nil }
                defer { g_variant_unref(value) }
                return String(cString: g_variant_get_string(value, nil))
            }
            #expect(labels == ["Copy Reply", "Regenerate Reply", "Copy Chat as Markdown"])
            gtk_widget_activate_action_variant(menu, "row.copy", nil)
            gtk_popover_popdown(menu.cast())
            #expect(try await GtkTestHarness.readClipboard() == reply.text)
            #expect(window.toast.isShown && window.toast.text == "Copied")
            try await GtkTestHarness.pump(until: { row.contextMenu == nil }, "the menu to go")

            // Copy Chat as Markdown (menu, Ctrl+Shift+C): the whole chat.
            gtk_widget_activate_action_variant(window.window, "win.copy-chat", nil)
            let chat = try await GtkTestHarness.readClipboard()
            #expect(chat.contains("Count my tokens") && chat.contains(reply.text), "\(chat)")
            #expect(chat.hasPrefix("# "), "a Markdown document with the chat's title")
        }
    }
}
