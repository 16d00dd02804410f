import CGtk
import Foundation
@testable import GtkFront

/// Real key presses, clicks, scrolls and window resizes through the X server (xdotool), as
/// a person's keyboard and mouse make them: GTK receives them as it would from a person.
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

    /// Types text character by character (ASCII: xdotool drops others at this speed).
    static func type(_ text: String) async throws {
        try await run(["type", "--delay", "12", text])
    }

    /// Clicks `button` (1 left, 3 right) at a point of `widget` (its centre by default).
    static func click(_ widget: UnsafeMutablePointer<GtkWidget>, button: Int = 1, x: Double? = nil, y: Double? = nil) async throws {
        try await scrollIntoView(widget, at: y)
        let (windowID, point) = try await screenPoint(in: widget, x: x, y: y)
        try await run(["mousemove", "--window", windowID, String(point.x), String(point.y), "click", String(button)])
    }

    /// Moves the pointer onto `widget` (its centre) and leaves it there — from a pixel aside,
    /// so that GTK sees a motion even when the pointer was there already.
    static func hover(_ widget: UnsafeMutablePointer<GtkWidget>) async throws {
        let (windowID, point) = try await screenPoint(in: widget, x: nil, y: nil)
        try await run(["mousemove", "--window", windowID, String(point.x + 1), String(point.y),
                       "mousemove", "--window", windowID, String(point.x), String(point.y)])
    }

    /// Presses the left button at (fromX, y) of `widget`, drags to (toX, y), releases: a selection.
    static func drag(in widget: UnsafeMutablePointer<GtkWidget>, fromX: Double, toX: Double, y: Double) async throws {
        let (windowID, start) = try await screenPoint(in: widget, x: fromX, y: y)
        let (_, end) = try await screenPoint(in: widget, x: toX, y: y)
        try await run(["mousemove", "--window", windowID, String(start.x), String(start.y), "mousedown", "1",
                       "mousemove", "--window", windowID, String((start.x + end.x) / 2), String(end.y),
                       "mousemove", "--window", windowID, String(end.x), String(end.y), "mouseup", "1"])
    }

    /// Turns the mouse wheel over `widget` (at `x` from its start, its middle when nil): up
    /// (button 4) or down (button 5), `clicks` times, with `key` (such as "shift") held when given.
    static func scroll(_ widget: UnsafeMutablePointer<GtkWidget>, up: Bool, clicks: Int, holding key: String? = nil,
                       x: Double? = nil) async throws {
        let (windowID, point) = try await screenPoint(in: widget, x: x, y: nil)
        let turns = ["click", "--repeat", String(clicks), "--delay", "20", up ? "4" : "5"]
        do {
            try await run(["mousemove", "--window", windowID, String(point.x), String(point.y)]
                          + (key.map { ["keydown", $0] + turns + ["keyup", $0] } ?? turns))
        } catch {
            // Never left held for the tests after this one.
            if let key { try? await run(["keyup", key]) }
            throw error
        }
    }

    /// Turns the mouse wheel over the scrolled window `widget` is in until the height `y` of it
    /// (its middle when nil) is in view, as a person scrolls to what they mean to click.
    private static func scrollIntoView(_ widget: UnsafeMutablePointer<GtkWidget>, at y: Double?) async throws {
        // A popover's content has the widget it points at as an ancestor, in another surface.
        guard gtk_widget_get_mapped(widget) != 0, let scroller = gtk_widget_get_ancestor(widget, gtk_scrolled_window_get_type()),
              gtk_widget_get_native(scroller) == gtk_widget_get_native(widget) else { return }
        for _ in 0..<60 {
            var source = graphene_point_t(x: 0, y: Float(y ?? Double(gtk_widget_get_height(widget)) / 2))
            var point = graphene_point_t()
            guard gtk_widget_compute_point(widget, scroller, &source, &point) != 0 else { return }
            let height = Float(gtk_widget_get_height(scroller))
            let margin = min(8, height / 4)
            if point.y >= margin && point.y <= height - margin { return }
            // At its edge, where no spin button, code block or text view takes the wheel.
            try await scroll(scroller, up: point.y < margin, clicks: 2, x: 4)
            try await GtkTestHarness.frameLaidOut(of: widget)
        }
        throw Failed(description: "the widget never scrolled into view")
    }

    /// Resizes `window` as a person dragging its corner would, and waits for GTK to lay it out.
    static func resize(_ window: UnsafeMutablePointer<GtkWidget>, width: Int, height: Int) async throws {
        let before = (gtk_widget_get_width(window), gtk_widget_get_height(window))
        try await run(["windowsize", String(agent_window_xid(window)), String(width), String(height)])
        try await GtkTestHarness.pump(until: { (gtk_widget_get_width(window), gtk_widget_get_height(window)) != before },
                                      timeout: .seconds(5), "the window to take its new size")
        try await GtkTestHarness.pump(for: .milliseconds(150))
    }

    /// The X window and the point in it of (x, y) of `widget` (its centre when nil), once a
    /// frame has laid the window out: a widget just shown, or moved by one shown above it,
    /// has its place only then.
    private static func screenPoint(in widget: UnsafeMutablePointer<GtkWidget>, x: Double?, y: Double?) async throws -> (String, (x: Int, y: Int)) {
        guard gtk_widget_get_mapped(widget) != 0 else { throw Failed(description: "the widget is not on screen") }
        try await GtkTestHarness.frameLaidOut(of: widget)
        guard gtk_widget_get_mapped(widget) != 0 else { throw Failed(description: "the widget left the screen") }
        guard let root = gtk_widget_get_native(widget) else { throw Failed(description: "the widget is not in a window") }
        let window = UnsafeMutableRawPointer(root).assumingMemoryBound(to: GtkWidget.self)
        var point = graphene_point_t()
        var source = graphene_point_t(x: Float(x ?? Double(gtk_widget_get_width(widget)) / 2),
                                      y: Float(y ?? Double(gtk_widget_get_height(widget)) / 2))
        guard gtk_widget_compute_point(widget, window, &source, &point) != 0 else { throw Failed(description: "no point") }
        var offsetX = 0.0
        var offsetY = 0.0
        gtk_native_get_surface_transform(root, &offsetX, &offsetY)
        return (String(agent_window_xid(window)), (Int(Double(point.x) + offsetX), Int(Double(point.y) + offsetY)))
    }

    /// Runs xdotool while GTK's main loop keeps going (the app must answer the X server).
    private static func run(_ arguments: [String]) async throws {
        let xdotool = Process()
        xdotool.executableURL = URL(filePath: "/usr/bin/xdotool")
        xdotool.arguments = arguments
        try xdotool.run()
        try await GtkTestHarness.pump(until: { !xdotool.isRunning }, timeout: .seconds(20), "xdotool \(arguments.first ?? "")")
        guard xdotool.terminationStatus == 0 else { throw Failed(description: "xdotool \(arguments.joined(separator: " ")) failed") }
        // A round trip to the X server: the events its fake input made are with GDK before they are handled.
        if let display = gdk_display_get_default() { gdk_display_sync(display) }
        GtkTestHarness.pumpPending()
    }
}
