import CGtk
import Foundation
@testable import GtkFront

/// Real key presses and clicks through the X server (xdotool), as a user's keyboard and
/// mouse make them: GTK receives them as it would from a person.
@MainActor
enum Xdo {
    struct Failed: Error, CustomStringConvertible {
        let description: String
    }

    /// Gives `window` the keyboard focus (there is no window manager under Xvfb to do it).
    static func focus(_ window: UnsafeMutablePointer<GtkWidget>) async throws {
        let xid = agent_window_xid(window)
        guard xid != 0 else { throw Failed(description: "the window has no X11 id (not realized, or not X11)") }
        try await run(["windowfocus", "--sync", String(xid)])
        try await GtkTestHarness.pump(until: { gtk_window_is_active(window.cast()) != 0 }, timeout: .seconds(5), "the window to be focused")
    }

    /// Presses keys such as "ctrl+comma" or "shift+Return", one combination after another.
    static func key(_ keys: String...) async throws {
        try await run(["key", "--clearmodifiers", "--delay", "30"] + keys)
    }

    /// Types text character by character.
    static func type(_ text: String) async throws {
        try await run(["type", "--delay", "15", text])
    }

    /// Clicks `button` (1 left, 3 right) at a point of `widget`.
    static func click(_ widget: UnsafeMutablePointer<GtkWidget>, button: Int = 1, x: Double = 12, y: Double = 12) async throws {
        guard let root = gtk_widget_get_native(widget) else { throw Failed(description: "the widget is not in a window") }
        let window = UnsafeMutableRawPointer(root).assumingMemoryBound(to: GtkWidget.self)
        var point = graphene_point_t()
        var source = graphene_point_t(x: Float(x), y: Float(y))
        guard gtk_widget_compute_point(widget, window, &source, &point) != 0 else { throw Failed(description: "no point") }
        var offsetX = 0.0
        var offsetY = 0.0
        gtk_native_get_surface_transform(root, &offsetX, &offsetY)
        let xid = agent_window_xid(window)
        try await run(["mousemove", "--window", String(xid), String(Int(Double(point.x) + offsetX)), String(Int(Double(point.y) + offsetY)),
                       "click", String(button)])
    }

    /// Runs xdotool while GTK's main loop keeps going (the app must answer the X server).
    private static func run(_ arguments: [String]) async throws {
        let xdotool = Process()
        xdotool.executableURL = URL(filePath: "/usr/bin/xdotool")
        xdotool.arguments = arguments
        try xdotool.run()
        try await GtkTestHarness.pump(until: { !xdotool.isRunning }, timeout: .seconds(10), "xdotool \(arguments.first ?? "")")
        guard xdotool.terminationStatus == 0 else { throw Failed(description: "xdotool \(arguments.joined(separator: " ")) failed") }
    }
}
