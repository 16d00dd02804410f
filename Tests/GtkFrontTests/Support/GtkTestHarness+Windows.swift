import CGtk
import Foundation
@testable import GtkFront
import Testing

extension GtkTestHarness {
    /// Puts `data` on the clipboard as `type` from another X client (as a file manager or a
    /// screenshot tool does), and waits until `window`'s clipboard offers it.
    @MainActor
    static func setClipboard(_ data: Data, type: String, for window: UnsafeMutablePointer<GtkWidget>) async throws {
        let xclip = Process()
        xclip.executableURL = URL(filePath: "/usr/bin/xclip")
        xclip.arguments = ["-selection", "clipboard", "-t", type, "-i"]
        let input = Pipe()
        xclip.standardInput = input
        xclip.standardOutput = FileHandle.nullDevice
        xclip.standardError = FileHandle.nullDevice
        try xclip.run()
        input.fileHandleForWriting.write(data)
        try input.fileHandleForWriting.close()
        let clipboard = gtk_widget_get_clipboard(window)
        try await pump(until: { gdk_content_formats_contain_mime_type(gdk_clipboard_get_formats(clipboard), type) != 0 },
                       "the clipboard to offer \(type)")
    }

    /// This process's windows on screen.
    @MainActor
    static func mappedToplevels() -> [UnsafeMutablePointer<GtkWidget>] {
        let list = gtk_window_list_toplevels()
        defer { g_list_free(list) }
        var found: [UnsafeMutablePointer<GtkWidget>] = []
        var node = list
        while let current = node {
            if let data = current.pointee.data {
                let widget = data.assumingMemoryBound(to: GtkWidget.self)
                if isMapped(widget) { found.append(widget) }
            }
            node = current.pointee.next
        }
        return found
    }

    /// Waits until `widget` has its place and size on screen (a widget just added is mapped a
    /// frame before it is laid out), keeps it for a moment (a transcript scrolling to its end
    /// moves it between a button's press and release) and nothing covers its middle, so that a
    /// click lands on it. Timed out, it says which of these it saw last.
    @MainActor
    static func laidOut(_ widget: UnsafeMutablePointer<GtkWidget>) async throws {
        var last: (bounds: [Float], since: ContinuousClock.Instant)?
        var problem = "not yet looked at"
        try await pump(until: {
            guard let bounds = placeOnScreen(of: widget) else {
                problem = "no place on screen (mapped: \(isMapped(widget)), in a window: \(gtk_widget_get_root(widget) != nil))"
                last = nil
                return false
            }
            guard let seen = last, seen.bounds == bounds else {
                problem = "moved to \(bounds)"
                last = (bounds, .now)
                return false
            }
            guard ContinuousClock.now - seen.since >= .milliseconds(150) else { return false }
            let picked = pickedAtMiddle(of: widget)
            problem = "covered: a click at its middle, at \(bounds), reaches \(picked.map(describe) ?? "nothing")"
            return picked.map { reaches($0, widget) } ?? false
        }, "\(String(cString: gtk_widget_get_name(widget))) laid out and still; last seen \(problem)")
        pumpPending()
    }

    /// `widget`'s place and size in its window, once a frame has laid it out; nil before.
    @MainActor
    private static func placeOnScreen(of widget: UnsafeMutablePointer<GtkWidget>) -> [Float]? {
        var bounds = graphene_rect_t()
        guard let root = gtk_widget_get_root(widget),
              gtk_widget_compute_bounds(widget, UnsafeMutableRawPointer(root).assumingMemoryBound(to: GtkWidget.self), &bounds) != 0,
              bounds.size.width > 0 && bounds.size.height > 0 && gtk_widget_get_child_visible(widget) != 0
              && (gtk_widget_get_frame_clock(widget).map { gdk_frame_clock_get_frame_counter($0) } ?? 0) > 0
        else { return nil }
        return [bounds.origin.x, bounds.origin.y, bounds.size.width, bounds.size.height]
    }

    /// A widget's type and CSS classes, for a failure's message.
    @MainActor
    private static func describe(_ widget: UnsafeMutablePointer<GtkWidget>) -> String {
        let classes = gtk_widget_get_css_classes(widget)
        defer { g_strfreev(classes) }
        var names: [String] = []
        var index = 0
        while let name = classes?[index] {
            names.append(String(cString: name))
            index += 1
        }
        return "\(String(cString: gtk_widget_get_name(widget))) .\(names.joined(separator: "."))"
    }

    /// The label on screen inside `widget` that reads `text` (mnemonic underscores ignored);
    /// `reachable`: one a click at its middle would reach.
    @MainActor
    static func mappedLabel(_ text: String, in widget: UnsafeMutablePointer<GtkWidget>,
                            reachable: Bool = false) -> UnsafeMutablePointer<GtkWidget>? {
        WidgetTree(widget).first { candidate in
            GtkText.isLabel(candidate) && isMapped(candidate) && label(candidate).replacing("_", with: "") == text
                && (!reachable || isReachable(candidate))
        }
    }

    /// Opens the menu of `button` with a click and clicks its item `item`; the menu.
    @MainActor
    @discardableResult
    static func chooseMenuItem(_ item: String, from button: UnsafeMutablePointer<GtkWidget>) async throws -> UnsafeMutablePointer<GtkWidget> {
        try await Xdo.click(button)
        try await pump(until: { gtk_menu_button_get_popover(button.opaque) != nil }, "the menu built")
        let popover = try #require(gtk_menu_button_get_popover(button.opaque))
        let menu = UnsafeMutableRawPointer(popover).assumingMemoryBound(to: GtkWidget.self)
        try await pump(until: { isMapped(menu) }, "the menu open")
        let label = try #require(mappedLabel(item, in: menu), "“\(item)” in the menu")
        try await laidOut(label)
        try await Xdo.click(label)
        return menu
    }

    /// Picks `file` in the file chooser that opened over `parent`: its location typed, as a
    /// person does with Ctrl+L, then Enter; `saving`: typed over the whole of the name a save
    /// dialog suggests (it selects the name without its extension). The focus goes back to
    /// `parent` (a window manager would give it back; there is none under Xvfb).
    @MainActor
    static func chooseFile(_ file: URL, over parent: UnsafeMutablePointer<GtkWidget>, saving: Bool = false) async throws {
        func chooser() -> UnsafeMutablePointer<GtkWidget>? {
            mappedToplevels().first { $0 != parent && gtk_window_get_transient_for($0.cast()) == parent.cast() }
        }
        try await pump(until: { chooser() != nil }, "the file chooser")
        let dialog = try #require(chooser())
        try await Xdo.focus(dialog)
        try await Xdo.key("ctrl+l")
        if saving { try await Xdo.key("ctrl+a") }
        try await Xdo.type(file.path)
        try await Xdo.key("Return")
        try await pump(until: { !mappedToplevels().contains(dialog) }, "the file chooser to close")
        try await Xdo.focus(parent)
    }

    /// The message dialogs on screen.
    @MainActor
    static func messageDialogs() -> [UnsafeMutablePointer<GtkWidget>] {
        mappedToplevels().filter { g_type_check_instance_is_a($0.cast(), adw_message_dialog_get_type()) != 0 }
    }

    /// Answers the message dialog headed `heading` with `button`, as a person does, and waits
    /// for it to close; returns its body.
    @MainActor
    static func answerDialog(headed heading: String, with button: String) async throws -> String {
        func open() -> UnsafeMutablePointer<GtkWidget>? {
            messageDialogs().first { adw_message_dialog_get_heading($0.cast()).map { String(cString: $0) } == heading }
        }
        try await pump(until: { open() != nil }, "the dialog “\(heading)”")
        let window = try #require(open())
        try await Xdo.focus(window)
        let body = adw_message_dialog_get_body(window.cast()).map { String(cString: $0) } ?? ""
        try await Xdo.click(try requireButton(button, in: window))
        try await pump(until: { open() == nil }, "the dialog to close")
        return body
    }
}
