import AgentCore
import CGtk
import Foundation
@testable import GtkFront
import TestSupport
import Testing

extension GtkSuites {
    /// A chat's own settings and presets in the window under Xvfb, used through the X server:
    /// the settings panel from Ctrl+I and what the next request carries, the strip naming what
    /// the chat sets apart, a chat started from the new-chat menu's preset and Ctrl+N after it,
    /// and a preset added and deleted in Preferences › Presets.
    @MainActor
    @Suite("Chat settings and presets in the window (GTK under Xvfb)", .serialized)
    struct ChatSettingsWindowTests {
        let server = TestServer.shared

        /// The app on `scenario`, its chats in a new database; with Preferences when `settings` is given.
        func launch(_ scenario: String, preferences settings: SettingsStore? = nil) async throws -> (AgentApplication, ChatWindow) {
            let file = FileManager.default.temporaryDirectory.appending(path: "agent-settings-\(UUID())/chats.sqlite")
            let endpoint = ChatEndpoint(serverURL: server.url(scenario), model: "m")
            let toolbox = try TestTools.toolbox()
            let preferences = settings.map { settings in
                AppPreferences(settings: settings, secrets: SecretStore()) { ChatConnection(endpoint: endpoint, toolbox: toolbox) }
            }
            let app = try GtkTestHarness.launch(endpoint, toolbox: toolbox, store: try ChatStore(file: file), settings: settings ?? TestTools.settings(),
                                                preferences: preferences)
            return try await GtkTestHarness.shown(app)
        }

        /// The body of the last request whose path holds `marker`.
        func lastRequest(_ marker: String) async throws -> [String: Any] {
            try #require(try await server.requests(containing: marker).last?["body"] as? [String: Any])
        }

        /// The system message of the last request whose path holds `marker`; nil when it had none.
        func systemPrompt(_ marker: String) async throws -> String? {
            let messages = try await lastRequest(marker)["messages"] as? [[String: Any]]
            return messages?.first.flatMap { $0["role"] as? String == "system" ? $0["content"] as? String : nil }
        }

        /// Opens the chat's settings with Ctrl+I and waits for the panel on screen.
        func openSettings(_ window: ChatWindow) async throws -> SettingsDialog {
            try await Xdo.key("ctrl+i")
            try await GtkTestHarness.pump(until: { window.settingsDialog.map { GtkTestHarness.isMapped($0.window) } == true },
                                          "the chat settings panel")
            let dialog = try #require(window.settingsDialog)
            try await Xdo.focus(dialog.window)
            return dialog
        }

        /// Clicks the enable switch of an expander row (the temperature, the reply length).
        func switchOn(_ expander: UnsafeMutablePointer<GtkWidget>) async throws {
            let toggle = try #require(GtkTestHarness.descendant(ofType: "GtkSwitch", in: expander))
            try await Xdo.click(toggle)
            try await GtkTestHarness.pump(until: { adw_expander_row_get_enable_expansion(expander.cast()) != 0 }, "the switch on")
            let revealer = try #require(GtkTestHarness.descendant(ofType: "GtkRevealer", in: expander))
            try await GtkTestHarness.pump(until: { gtk_revealer_get_child_revealed(revealer.opaque) != 0 }, "the row opened")
        }

        /// Types `text` over what a spin button or entry holds.
        func fill(_ widget: UnsafeMutablePointer<GtkWidget>, with text: String) async throws {
            try await GtkTestHarness.pump(until: { GtkTestHarness.isMapped(widget) }, "the field on screen")
            try await Xdo.click(widget, x: 16)
            try await GtkTestHarness.pump(until: {
                guard let root = gtk_widget_get_root(widget), let focus = gtk_root_get_focus(root) else { return false }
                return focus == widget || gtk_widget_is_ancestor(focus, widget) != 0
            }, "the keyboard in the field")
            try await Xdo.key("ctrl+a")
            try await Xdo.type(text)
        }

        /// Opens the new-chat button's menu with a click on its arrow and clicks `item` in it.
        func chooseInNewChatMenu(_ item: String, in window: ChatWindow) async throws -> [String] {
            let button = try #require(window.newChatButton)
            let arrow = try #require(button.arrow)
            // Its tooltip was given before the window was built, with the arrow hidden meanwhile.
            #expect(gtk_widget_get_tooltip_text(arrow).map { String(cString: $0) } == "New Chat from a Preset")
            #expect(adw_split_button_get_dropdown_tooltip(OpaquePointer(button.widget)).map { String(cString: $0) } == "New Chat from a Preset")
            try await Xdo.click(arrow)
            let popover = try #require(gtk_menu_button_get_popover(arrow.opaque).map { UnsafeMutableRawPointer($0).assumingMemoryBound(to: GtkWidget.self) })
            try await GtkTestHarness.pump(until: { GtkTestHarness.reachableLabel(item, in: popover) != nil }, "“\(item)” in the new-chat menu")
            let items = try menuLabels(try #require(gtk_menu_button_get_menu_model(arrow.opaque)))
            try await Xdo.click(try #require(GtkTestHarness.reachableLabel(item, in: popover)))
            return items
        }

        /// The labels of a menu's items, section after section, mnemonic underscores dropped.
        func menuLabels(_ menu: UnsafeMutablePointer<GMenuModel>) throws -> [String] {
            (0..<g_menu_model_get_n_items(menu)).flatMap { index -> [String] in
                guard let section = g_menu_model_get_item_link(menu, index, "section") else { return [] }
                defer { g_object_unref(UnsafeMutableRawPointer(section)) }
                return (0..<g_menu_model_get_n_items(section)).compactMap { item in
                    guard let label = g_menu_model_get_item_attribute_value(section, item, "label", nil) else { return nil }
                    defer { g_variant_unref(label) }
                    return g_variant_get_string(label, nil).map { String(cString: $0).replacing("_", with: "") }
                }
            }
        }

        @Test("Ctrl+I opens the chat's settings; a temperature and tools off, saved, are what the next request carries and what the strip names; Escape changes nothing")
        func settingsPanel() async throws {
            let marker = uniqueMarker()
            let (app, window) = try await launch("echo/\(marker)")
            defer { GtkTestHarness.close(app) }
            let model = window.viewModel
            let strip = window.chatPage.settingsSummary
            try await GtkTestHarness.send("first", in: window)
            #expect(try await lastRequest(marker)["tools"] != nil, "a new chat offers tools")
            #expect(!GtkTestHarness.isVisible(strip.widget), "nothing set apart: no strip")

            var dialog = try await openSettings(window)
            #expect(gtk_widget_has_focus(dialog.form.modelRow) != 0, "the keyboard starts on the first row")
            try await switchOn(dialog.form.temperatureRow)
            try await fill(dialog.form.temperature, with: "1.3")
            try await Xdo.click(dialog.form.tools)
            try await GtkTestHarness.pump(until: { gtk_switch_get_active(dialog.form.tools.opaque) == 0 }, "tools off")
            try await Xdo.click(dialog.saveButton)
            try await GtkTestHarness.pump(until: { window.settingsDialog == nil }, "the panel to close")
            #expect(model.settings.temperature == 1.3 && !model.settings.toolsEnabled)
            #expect(GtkTestHarness.isMapped(strip.widget))
            #expect(GtkTestHarness.label(strip.label) == "temperature 1.3 · no tools")

            try await Xdo.focus(window.window)
            try await GtkTestHarness.send("second", in: window)
            let body = try await lastRequest(marker)
            #expect(body["temperature"] as? Double == 1.3)
            #expect(body["tools"] == nil, "tools off for this chat")
            let saved = try #require(model.chat)
            #expect(try window.library?.store.chat(saved.id)?.settings.temperature == 1.3, "kept with the chat")

            dialog = try await openSettings(window)
            #expect(gtk_spin_button_get_value(dialog.form.temperature.opaque) == 1.3, "the panel shows what the chat has")
            try await Xdo.click(dialog.form.systemPrompt)
            try await Xdo.type("Be a pirate.")
            try await Xdo.key("Escape")
            try await GtkTestHarness.pump(until: { window.settingsDialog == nil }, "Escape to close the panel")
            #expect(model.settings.systemPrompt == "", "nothing saved")
            #expect(GtkTestHarness.label(strip.label) == "temperature 1.3 · no tools")

            // The strip opens the panel too; Cancel leaves the settings as they were.
            try await Xdo.focus(window.window)
            try await Xdo.click(strip.widget)
            try await GtkTestHarness.pump(until: { window.settingsDialog.map { GtkTestHarness.isMapped($0.window) } == true },
                                          "the panel from the strip")
            dialog = try #require(window.settingsDialog)
            try await Xdo.focus(dialog.window)
            try await Xdo.click(dialog.form.tools)
            try await GtkTestHarness.pump(until: { gtk_switch_get_active(dialog.form.tools.opaque) != 0 }, "tools on")
            try await Xdo.click(dialog.cancelButton)
            try await GtkTestHarness.pump(until: { window.settingsDialog == nil }, "Cancel to close the panel")
            #expect(!model.settings.toolsEnabled, "Cancel saves nothing")
        }

        @Test("Translator from the new-chat menu: its prompt goes with the first message and the strip names it; Ctrl+N starts from it again")
        func chatFromAPreset() async throws {
            let marker = uniqueMarker()
            let (app, window) = try await launch("echo/\(marker)")
            defer { GtkTestHarness.close(app) }
            let model = window.viewModel
            let button = try #require(window.newChatButton)
            #expect(button.face.flatMap { gtk_widget_get_tooltip_text($0) }.map { String(cString: $0) } == "New Chat")
            try await Xdo.key("ctrl+n")
            #expect(model.presetName == nil && model.settings == ChatSettings(), "before any preset was used: Preferences' settings")

            let items = try await chooseInNewChatMenu("Translator", in: window)
            #expect(items == ["Plain Assistant", "Terse Code Reviewer", "Translator", "Manage Presets…"])
            try await GtkTestHarness.pump(until: { model.presetName == "Translator" }, "the chat from the preset")
            #expect(GtkTestHarness.label(window.chatPage.settingsSummary.label) == "Translator · own system prompt · temperature 0.3 · no tools")
            try await Xdo.focus(window.window)
            try await GtkTestHarness.send("Guten Morgen", in: window)
            #expect(try await systemPrompt(marker)?.hasPrefix("You translate.") == true)
            let body = try await lastRequest(marker)
            #expect(body["temperature"] as? Double == 0.3 && body["tools"] == nil)
            #expect(button.face.flatMap { gtk_widget_get_tooltip_text($0) }.map { String(cString: $0) } == "New “Translator” Chat")

            try await Xdo.key("ctrl+n")
            try await GtkTestHarness.pump(until: { model.chat == nil && model.conversation.count == 0 }, "a new chat")
            #expect(model.presetName == "Translator", "Ctrl+N starts from the preset used last")
            try await GtkTestHarness.send("Gute Nacht", in: window)
            #expect(try await systemPrompt(marker)?.hasPrefix("You translate.") == true)
        }

        @Test("Manage Presets… opens Preferences › Presets; a preset added there is in the new-chat menu and starts chats with its prompt; deleting it asks first")
        func presetAddedInPreferences() async throws {
            let marker = uniqueMarker()
            let (app, window) = try await launch("echo/\(marker)", preferences: try TestTools.settings())
            defer { GtkTestHarness.close(app) }
            _ = try await chooseInNewChatMenu("Manage Presets…", in: window)
            try await GtkTestHarness.pump(until: { window.preferencesWindow.map { GtkTestHarness.isMapped($0.window) } == true }, "Preferences")
            let preferences = try #require(window.preferencesWindow)
            let page = try #require(preferences.presets)
            try await GtkTestHarness.pump(until: { GtkTestHarness.isMapped(page.addButton) }, "the Presets page shown")
            #expect(page.rows.map(\.preset.name) == ["Plain Assistant", "Terse Code Reviewer", "Translator"])
            try await Xdo.focus(preferences.window)

            try await Xdo.click(page.addButton)
            try await GtkTestHarness.pump(until: { page.editor.map { GtkTestHarness.isMapped($0.window) } == true }, "the preset editor")
            let editor = try #require(page.editor)
            try await Xdo.focus(editor.window)
            #expect(!GtkTestHarness.isSensitive(editor.saveButton), "a preset needs a name")
            let nameRow = try #require(editor.form.nameRow)
            try await GtkTestHarness.pump(until: {
                gtk_widget_get_root(editor.window).flatMap(gtk_root_get_focus).map { gtk_widget_is_ancestor($0, nameRow) != 0 } == true
            }, "the keyboard in the name")
            try await Xdo.type("translator")
            try await GtkTestHarness.pump(until: { gtk_widget_has_css_class(nameRow, "error") != 0 }, "a name taken marked")
            #expect(!GtkTestHarness.isSensitive(editor.saveButton), "no second Translator")
            try await Xdo.key("ctrl+a")
            try await Xdo.type("Pirate")
            try await GtkTestHarness.pump(until: { GtkTestHarness.isSensitive(editor.saveButton) }, "Save on with a name")
            #expect(gtk_widget_has_css_class(nameRow, "error") == 0)
            try await Xdo.click(editor.form.systemPrompt)
            try await Xdo.type("Talk like a pirate.")
            try await Xdo.click(editor.saveButton)
            try await GtkTestHarness.pump(until: { page.rows.count == 4 }, "the new preset's row")
            #expect(page.rows.last?.preset.systemPrompt == "Talk like a pirate.")
            #expect(page.rows.last?.preset.temperature == nil && page.rows.last?.preset.toolsEnabled == true)

            try await Xdo.focus(preferences.window)
            try await Xdo.key("Escape")
            try await GtkTestHarness.pump(until: { window.preferencesWindow == nil }, "Preferences to close")
            try await Xdo.focus(window.window)
            let items = try await chooseInNewChatMenu("Pirate", in: window)
            #expect(items == ["Plain Assistant", "Terse Code Reviewer", "Translator", "Pirate", "Manage Presets…"])
            try await GtkTestHarness.pump(until: { window.viewModel.presetName == "Pirate" }, "the chat from the new preset")
            try await Xdo.focus(window.window)
            try await GtkTestHarness.send("Hello", in: window)
            #expect(try await systemPrompt(marker) == "Talk like a pirate.")

            _ = try await chooseInNewChatMenu("Manage Presets…", in: window)
            try await GtkTestHarness.pump(until: { window.preferencesWindow.map { GtkTestHarness.isMapped($0.window) } == true }, "Preferences")
            let reopened = try #require(window.preferencesWindow?.presets)
            try await GtkTestHarness.pump(until: { reopened.rows.last.map { GtkTestHarness.isMapped($0.delete) } == true }, "the rows")
            try await Xdo.focus(try #require(window.preferencesWindow).window)
            try await Xdo.click(try #require(reopened.rows.last).delete)
            func question() -> UnsafeMutablePointer<GtkWidget>? {
                GtkTestHarness.mappedToplevels().first { GtkTestHarness.button("Delete", in: $0) != nil }
            }
            try await GtkTestHarness.pump(until: { question() != nil }, "the question")
            let dialog = try #require(question())
            #expect(GtkText.labels(in: dialog).contains("Delete “Pirate”?"))
            try await Xdo.focus(dialog)
            try await Xdo.click(try GtkTestHarness.requireButton("Delete", in: dialog))
            try await GtkTestHarness.pump(until: { reopened.rows.count == 3 }, "the preset deleted")
            #expect(try window.library?.store.preset(named: "Pirate") == nil)
        }
    }
}
