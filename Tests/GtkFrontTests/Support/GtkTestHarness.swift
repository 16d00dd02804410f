import AgentCore
import CGtk
import Foundation
@testable import GtkFront
import TestSupport
import Testing

/// Runs the real application in-process under the test's display: registers it (its
/// `startup`), activates it (its `activate`: the window), and pumps GLib's main loop
/// while the test waits. The tests then act through the X server (`Xdo`) as a person does
/// and read the results back from the widgets. GTK tests need a display and a D-Bus
/// session; scripts/test provides both.
@MainActor
enum GtkTestHarness {
    struct NoDisplay: Error, CustomStringConvertible {
        var description: String { "No display for GTK: run the tests under Xvfb (scripts/test does: xvfb-run … swift test)" }
    }

    /// The desktop's settings portal, started before libadwaita first looks for it (its
    /// style manager reads the portal once, when the first application starts up): dark or
    /// light comes from here in every window test, as on a desktop.
    static let portal: DBusMock? = DBusMock.sessionAddress.flatMap { address in
        try? DBusMock(template: PrivateBus.template("portal_settings_template.py"), busName: "org.freedesktop.portal.Desktop",
                      objectPath: "/org/freedesktop/portal/desktop", address: address, parameters: ["color-scheme": 0])
    }

    private static let initialized: Bool = {
        setenv("GSK_RENDERER", "cairo", 0)
        _ = portal
        g_log_set_writer_func(GLibWarnings.writer, nil, nil)
        _ = TestOpener.record
        // The program's name, as g_application_run gives the app's (recent files need one).
        g_set_prgname("agent")
        guard gtk_init_check() != 0 else { return false }
        // Files the tests open stay out of the user's recent files (and the file chooser
        // opens on a folder, not on Recent).
        var off = GValue()
        g_value_init(&off, GType(5 << G_TYPE_FUNDAMENTAL_SHIFT))
        g_value_set_boolean(&off, 0)
        g_object_set_property(UnsafeMutableRawPointer(gtk_settings_get_default()).assumingMemoryBound(to: GObject.self),
                              "gtk-recent-files-enabled", &off)
        g_value_unset(&off)
        return true
    }()

    static func requireDisplay() throws {
        guard initialized else { throw NoDisplay() }
    }

    /// An application with its window, talking to `endpoint` (or through `connection`), reading
    /// aloud through the speech service at `speech`. `asAgent`: under Agent's own name on the
    /// session bus, where a launched `agent` hands it its command line. GApplication has no way
    /// to give the name back before the process ends, so only a test run in a child process of
    /// its own (`ChildTestRun`) launches so.
    static func launch(_ endpoint: ChatEndpoint, toolbox: Toolbox = Toolbox(), consent: ConsentBroker = ConsentBroker(),
                       store: ChatStore? = nil, settings: SettingsStore? = nil, preferences: AppPreferences? = nil,
                       connection: ChatConnection? = nil, storeProblem: String? = nil, speech: SpeechAddress = .desktop, asAgent: Bool = false,
                       knowledgeIndex: URL = FileManager.default.temporaryDirectory.appending(path: "agent-index-\(UUID().uuidString)")
                           .appending(path: "knowledge.sqlite")) throws -> AgentApplication {
        try requireDisplay()
        warningsBefore = GLibWarnings.count
        launches += 1
        let connection = connection ?? preferences?.makeConnection() ?? ChatConnection(endpoint: endpoint, toolbox: toolbox)
        let viewModel = ChatViewModel(connection: connection, consent: consent, store: store, knowledgeIndex: knowledgeIndex)
        let library = store.map { ChatLibrary(store: $0, viewModel: viewModel, settings: settings ?? preferences?.settings) }
        let app = AgentApplication(viewModel: viewModel, library: library, preferences: preferences, storeProblem: storeProblem,
                                   unique: asAgent, applicationID: asAgent ? AppIdentity.applicationID : "\(AppIdentity.applicationID).Test\(launches)",
                                   speech: speech)
        let gApplication = UnsafeMutableRawPointer(app.application).assumingMemoryBound(to: GApplication.self)
        var error: UnsafeMutablePointer<GError>?
        guard g_application_register(gApplication, nil, &error) != 0 else {
            let message = error.map { String(cString: $0.pointee.message) } ?? "unknown"
            g_clear_error(&error)
            throw RegistrationFailed(message: message)
        }
        guard g_application_get_is_remote(gApplication) == 0 else { throw RegistrationFailed(message: "another Agent runs") }
        g_application_activate(gApplication)
        return app
    }

    /// How many GLib warnings and criticals there were when the last app launched.
    private static var warningsBefore = 0

    private static var launches = 0

    struct RegistrationFailed: Error, CustomStringConvertible {
        let message: String
        var description: String { "could not register the application: \(message)" }
    }

    /// Waits for the window to be on screen and gives it the keyboard focus.
    static func show(_ window: ChatWindow) async throws {
        try await pump(until: { gtk_widget_get_mapped(window.window) != 0 }, "the window on screen")
        try await Xdo.focus(window.window)
    }

    /// `app` with its window shown and focused; closed again when that fails.
    static func shown(_ app: AgentApplication) async throws -> (AgentApplication, ChatWindow) {
        do {
            let window = try #require(app.window)
            try await show(window)
            return (app, window)
        } catch {
            close(app)
            throw error
        }
    }

    /// Closes the app's window and ends the app as its main loop's end does (`shutDown`: its
    /// local model server stops, …), so that a test process running app after app does not
    /// gather their llama-servers. A GTK, GLib or libadwaita warning or critical logged while
    /// it ran fails the test: each is a misuse of the toolkit, and some read freed memory.
    static func close(_ app: AgentApplication) {
        if let chatWindow = app.window {
            let window = chatWindow.window
            // Preferences a failed test left open closes first, while the window it reports its
            // changes to is whole: destroyed with the window, it would close after its widgets.
            chatWindow.closePreferences()
            // A popover a failed test left open would keep its grab of the X pointer and
            // keyboard past the window: every later test's clicks and keys would go to it.
            popDownPopovers(in: window)
            pumpPending()
            gtk_window_destroy(window.cast())
        }
        pumpPending()
        app.shutDown()
        let logged = GLibWarnings.messages(since: warningsBefore)
        warningsBefore = GLibWarnings.count
        if !logged.isEmpty { Issue.record("GLib logged while the app ran:\n\(logged.joined(separator: "\n"))") }
    }

    /// Closes every popover open inside `widget`.
    private static func popDownPopovers(in widget: UnsafeMutablePointer<GtkWidget>) {
        for popover in WidgetTree(widget) where popover.isA(gtk_popover_get_type())
            && gtk_widget_get_visible(popover) != 0 {
            gtk_popover_popdown(popover.cast())
        }
    }

    /// Dispatches what GLib has ready, for a second at most: a main loop that never rests
    /// (a frame that always asks for another) then fails the test's waits instead of hanging it.
    static func pumpPending() {
        let deadline = ContinuousClock.now + .seconds(1)
        while ContinuousClock.now < deadline, g_main_context_iteration(nil, 0) != 0 {}
    }

    /// Pumps GLib and lets Swift tasks run until `condition` holds (or fails after `timeout`,
    /// with `description` read at that moment, so that it can tell what was there instead).
    static func pump(until condition: () -> Bool, timeout: Duration = .seconds(20),
                     _ description: @autoclosure () -> String = "condition") async throws {
        let deadline = ContinuousClock.now + timeout * TestTiming.scale
        while !condition() {
            pumpPending()
            guard ContinuousClock.now < deadline else {
                throw TimedOut(what: description())
            }
            try await Task.sleep(for: .milliseconds(4))
        }
        pumpPending()
    }

    /// Pumps for a while regardless (lets frames happen).
    static func pump(for duration: Duration) async throws {
        let deadline = ContinuousClock.now + duration
        while ContinuousClock.now < deadline {
            pumpPending()
            try await Task.sleep(for: .milliseconds(4))
        }
    }

    /// Pumps until a frame begun after this call has been laid out: `widget`'s frame clock
    /// ticks twice, and the second tick comes after the first frame's layout.
    static func frameLaidOut(of widget: UnsafeMutablePointer<GtkWidget>) async throws {
        let frame = FrameSeen()
        FrameTick.once(on: widget) { FrameTick.once(on: widget) { frame.seen = true } }
        try await pump(until: { frame.seen }, timeout: .seconds(5), "a frame laid out")
    }

    /// Pumps until no squeezer in `window` is crossfading. A view switcher too wide for a
    /// window just opened crossfades to its narrow form, and the form it leaves, mapped and
    /// reachable meanwhile, is unmapped when the crossfade ends.
    static func crossfadesEnded(in window: UnsafeMutablePointer<GtkWidget>) async throws {
        try await frameLaidOut(of: window)
        try await pump(until: {
            !WidgetTree(window).contains { $0.isA(adw_squeezer_get_type()) && adw_squeezer_get_transition_running(OpaquePointer($0)) != 0 }
        }, "the window's crossfades to end")
    }

    /// Pumps until `window`'s transcript has applied every change to its rows and a whole
    /// frame has passed since (its layout done, its rows bound): the rows then show what the
    /// view model holds.
    static func settle(_ window: ChatWindow, timeout: Duration = .seconds(20)) async throws {
        let transcript = window.transcript
        let deadline = ContinuousClock.now + timeout * TestTiming.scale
        while true {
            try await pump(until: { transcript.isSettled }, timeout: timeout, "the transcript to apply its changes")
            let frame = FrameSeen()
            FrameTick.once(on: transcript.listView) { frame.seen = true }
            try await pump(until: { frame.seen }, timeout: timeout, "a frame of the transcript")
            if transcript.isSettled { return }
            guard ContinuousClock.now < deadline else { throw TimedOut(what: "the transcript to settle") }
        }
    }

    private final class FrameSeen {
        var seen = false
    }

    struct TimedOut: Error, CustomStringConvertible {
        let what: String
        var description: String { "timed out waiting for \(what)" }
    }

    /// The clipboard's text, read through the X server by another client (xclip).
    static func readClipboard() async throws -> String {
        let xclip = Process()
        xclip.executableURL = URL(filePath: "/usr/bin/xclip")
        xclip.arguments = ["-selection", "clipboard", "-o"]
        let output = Pipe()
        xclip.standardOutput = output
        try xclip.run()
        // The app must answer the selection request, so keep its main loop running.
        try await pump(until: { !xclip.isRunning }, "xclip to read the clipboard")
        return String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    }

    /// The clipboard's text once `condition` holds for it (what an app copies reaches the X
    /// server a moment after the click or the key), or after `timeout` what it holds then.
    static func readClipboard(when condition: (String) -> Bool, timeout: Duration = .seconds(5)) async throws -> String {
        let deadline = ContinuousClock.now + timeout * TestTiming.scale
        var text = try await readClipboard()
        while !condition(text), ContinuousClock.now < deadline {
            try await pump(for: .milliseconds(20))
            text = try await readClipboard()
        }
        return text
    }

    /// Puts `text` on the clipboard from another X client, as another app would. xclip stays
    /// in the background until another client owns the clipboard, so it must not hold the
    /// test run's output open (swift test would wait for it to end).
    static func setClipboard(_ text: String) async throws {
        let xclip = Process()
        xclip.executableURL = URL(filePath: "/usr/bin/xclip")
        xclip.arguments = ["-selection", "clipboard", "-i"]
        let input = Pipe()
        xclip.standardInput = input
        xclip.standardOutput = FileHandle.nullDevice
        xclip.standardError = FileHandle.nullDevice
        try xclip.run()
        input.fileHandleForWriting.write(Data(text.utf8))
        try input.fileHandleForWriting.close()
        // xclip owns the clipboard only once it has read its input: wait until it answers with the text.
        let deadline = ContinuousClock.now + .seconds(10) * TestTiming.scale
        while try await readClipboard() != text {
            guard ContinuousClock.now < deadline else { throw TimedOut(what: "xclip to hold the clipboard") }
            try await pump(for: .milliseconds(20))
        }
    }

    static func isVisible(_ widget: UnsafeMutablePointer<GtkWidget>) -> Bool { gtk_widget_get_visible(widget) != 0 }
    static func isMapped(_ widget: UnsafeMutablePointer<GtkWidget>) -> Bool { gtk_widget_get_mapped(widget) != 0 }
    static func isSensitive(_ widget: UnsafeMutablePointer<GtkWidget>) -> Bool { gtk_widget_get_sensitive(widget) != 0 }
    static func isFocused(_ widget: UnsafeMutablePointer<GtkWidget>) -> Bool { gtk_widget_has_focus(widget) != 0 }

    /// The label under `widget` reading `text` that a click at its middle reaches: a view
    /// switcher keeps a label per layout (wide and narrow), both mapped, one drawn elsewhere.
    static func reachableLabel(_ text: String, in widget: UnsafeMutablePointer<GtkWidget>) -> UnsafeMutablePointer<GtkWidget>? {
        mappedLabel(text, in: widget, reachable: true)
    }

    /// Whether what a click at the middle of `widget` lands on is `widget`, inside it, or holds it.
    static func isReachable(_ widget: UnsafeMutablePointer<GtkWidget>) -> Bool {
        pickedAtMiddle(of: widget).map { reaches($0, widget) } ?? false
    }

    /// Whether a click that `picked` takes reaches `widget`: it is the widget, inside it, or holds it.
    static func reaches(_ picked: UnsafeMutablePointer<GtkWidget>, _ widget: UnsafeMutablePointer<GtkWidget>) -> Bool {
        picked == widget || gtk_widget_is_ancestor(picked, widget) != 0 || gtk_widget_is_ancestor(widget, picked) != 0
    }

    /// The widget a click at the middle of `widget` would reach.
    static func pickedAtMiddle(of widget: UnsafeMutablePointer<GtkWidget>) -> UnsafeMutablePointer<GtkWidget>? {
        guard let native = gtk_widget_get_native(widget) else { return nil }
        let root = UnsafeMutableRawPointer(native).assumingMemoryBound(to: GtkWidget.self)
        var middle = graphene_point_t(x: Float(gtk_widget_get_width(widget)) / 2, y: Float(gtk_widget_get_height(widget)) / 2)
        var point = graphene_point_t()
        guard gtk_widget_compute_point(widget, root, &middle, &point) != 0 else { return nil }
        return gtk_widget_pick(root, Double(point.x), Double(point.y), GTK_PICK_DEFAULT)
    }

    static func label(_ widget: UnsafeMutablePointer<GtkWidget>) -> String {
        String(cString: gtk_label_get_text(widget.opaque))
    }

    /// The button inside `widget` whose label reads `label` (mnemonic underscores ignored).
    static func button(_ label: String, in widget: UnsafeMutablePointer<GtkWidget>) -> UnsafeMutablePointer<GtkWidget>? {
        WidgetTree(widget).first { button in
            guard button.isA(gtk_button_get_type()), let text = gtk_button_get_label(button.cast()) else { return false }
            return String(cString: text).replacing("_", with: "") == label
        }
    }

    /// The first widget inside `widget` (itself included) of GType `type` (by name).
    static func descendant(ofType type: String, in widget: UnsafeMutablePointer<GtkWidget>) -> UnsafeMutablePointer<GtkWidget>? {
        WidgetTree(widget).first { $0.isA(g_type_from_name(type)) }
    }

    /// The first widget on screen inside `widget` (itself included) with CSS class `name`.
    static func descendant(withCSSClass name: String, in widget: UnsafeMutablePointer<GtkWidget>) -> UnsafeMutablePointer<GtkWidget>? {
        WidgetTree(widget).first { gtk_widget_has_css_class($0, name) != 0 && isMapped($0) }
    }

    /// The labels inside `widget` (itself included), in order.
    static func labelWidgets(in widget: UnsafeMutablePointer<GtkWidget>) -> [UnsafeMutablePointer<GtkWidget>] {
        WidgetTree(widget).filter { GtkText.isLabel($0) }
    }

    /// Answers a message dialog as a person does: focuses it and clicks the button `label`.
    static func answer(_ dialog: MessageDialog, _ label: String) async throws {
        try await pump(until: { isMapped(dialog.window) }, "the dialog on screen")
        try await Xdo.focus(dialog.window)
        let button = try requireButton(label, in: dialog.window)
        try await Xdo.click(button)
    }

    static func requireButton(_ label: String, in widget: UnsafeMutablePointer<GtkWidget>) throws -> UnsafeMutablePointer<GtkWidget> {
        guard let found = button(label, in: widget) else { throw Xdo.Failed(description: "no button “\(label)”") }
        return found
    }
}
