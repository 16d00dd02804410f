import AgentCore
import CGtk
import Foundation
@testable import GtkFront

/// Runs the real application in-process under the test's display: registers it (its
/// `startup`), activates it (its `activate`: the window), and pumps GLib's main loop
/// while the test waits. GTK tests need a display; scripts/test provides Xvfb.
@MainActor
enum GtkTestHarness {
    struct NoDisplay: Error, CustomStringConvertible {
        var description: String { "No display for GTK: run the tests under Xvfb (scripts/test does: xvfb-run … swift test)" }
    }

    private static let initialized: Bool = {
        setenv("GSK_RENDERER", "cairo", 0)
        return gtk_init_check() != 0
    }()

    static func requireDisplay() throws {
        guard initialized else { throw NoDisplay() }
    }

    /// An application with its window, talking to `endpoint` (or through `connection`).
    static func launch(_ endpoint: ChatEndpoint, toolbox: Toolbox = Toolbox(), consent: ConsentBroker = ConsentBroker(),
                       store: ChatStore? = nil, settings: SettingsStore? = nil,
                       preferences: AppPreferences? = nil, connection: ChatConnection? = nil) throws -> AgentApplication {
        try requireDisplay()
        launches += 1
        let connection = connection ?? preferences?.makeConnection() ?? ChatConnection(endpoint: endpoint, toolbox: toolbox)
        let viewModel = ChatViewModel(connection: connection, consent: consent, store: store)
        let library = store.map { ChatLibrary(store: $0, viewModel: viewModel, settings: settings ?? preferences?.settings) }
        let app = AgentApplication(viewModel: viewModel, library: library, preferences: preferences, unique: false,
                                   applicationID: "\(AppIdentity.applicationID).Test\(launches)")
        let gApplication = UnsafeMutableRawPointer(app.application).assumingMemoryBound(to: GApplication.self)
        var error: UnsafeMutablePointer<GError>?
        guard g_application_register(gApplication, nil, &error) != 0 else {
            let message = error.map { String(cString: $0.pointee.message) } ?? "unknown"
            g_clear_error(&error)
            throw RegistrationFailed(message: message)
        }
        g_application_activate(gApplication)
        return app
    }

    private static var launches = 0

    struct RegistrationFailed: Error, CustomStringConvertible {
        let message: String
        var description: String { "could not register the application: \(message)" }
    }

    static func close(_ app: AgentApplication) {
        if let window = app.window?.window { gtk_window_destroy(window.cast()) }
        pumpPending()
    }

    /// Runs everything GLib has ready, without blocking.
    static func pumpPending() {
        while g_main_context_iteration(nil, 0) != 0 {}
    }

    /// Pumps GLib and lets Swift tasks run until `condition` holds (or fails after `timeout`).
    static func pump(until condition: () -> Bool, timeout: Duration = .seconds(20),
                     _ description: String = "condition") async throws {
        let deadline = ContinuousClock.now + timeout
        while !condition() {
            pumpPending()
            guard ContinuousClock.now < deadline else {
                throw TimedOut(what: description)
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

    struct TimedOut: Error, CustomStringConvertible {
        let what: String
        var description: String { "timed out waiting for \(what)" }
    }

    /// The texts of every label inside `widget`, depth first.
    static func labelTexts(in widget: UnsafeMutablePointer<GtkWidget>) -> [String] {
        var texts: [String] = []
        if g_type_check_instance_is_a(UnsafeMutableRawPointer(widget).assumingMemoryBound(to: GTypeInstance.self),
                                      gtk_label_get_type()) != 0 {
            texts.append(String(cString: gtk_label_get_text(OpaquePointer(widget))))
        }
        var child = gtk_widget_get_first_child(widget)
        while let current = child {
            texts += labelTexts(in: current)
            child = gtk_widget_get_next_sibling(current)
        }
        return texts
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

    static func isVisible(_ widget: UnsafeMutablePointer<GtkWidget>) -> Bool { gtk_widget_get_visible(widget) != 0 }
    static func isSensitive(_ widget: UnsafeMutablePointer<GtkWidget>) -> Bool { gtk_widget_get_sensitive(widget) != 0 }
}
