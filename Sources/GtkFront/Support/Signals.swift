import CGLib
import CGtk

/// Connects Swift closures to GObject signals. Each closure is retained by its signal
/// connection and released by GLib when the connection goes (disconnect or the
/// object's finalization), so neither dangles nor leaks. Handlers run on the main thread.
@MainActor
enum Signals {
    private final class Box<Handler> {
        let handler: Handler
        init(_ handler: Handler) { self.handler = handler }
    }

    private typealias VoidBox = Box<@MainActor () -> Void>
    private typealias PointerBox = Box<@MainActor (UnsafeMutableRawPointer?) -> Void>
    private typealias KeyBox = Box<@MainActor (UInt32, GdkModifierType) -> Bool>
    private typealias BoolBox = Box<@MainActor () -> Bool>
    private typealias PressBox = Box<@MainActor (Int32, Double, Double) -> Void>
    private typealias PairBox = Box<@MainActor (UInt32, UInt32) -> Void>
    private typealias UnsignedBox = Box<@MainActor (UInt32) -> Void>
    private typealias CommandLineBox = Box<@MainActor (UnsafeMutablePointer<GApplicationCommandLine>) -> Int32>
    private typealias DropBox = Box<@MainActor (UnsafePointer<GValue>) -> Bool>
    private typealias ScrollBox = Box<@MainActor (Double, Double) -> Bool>
    private typealias PointBox = Box<@MainActor (Double, Double) -> Void>
    private typealias TooltipBox = Box<@MainActor (OpaquePointer) -> Bool>

    /// For signals whose handler takes only the instance: `clicked`, `activate`, `changed`, …
    /// (A handler of the wrong shape reads garbage as its closure: match the signal's C signature.)
    @discardableResult
    static func connect(_ instance: UnsafeMutableRawPointer, _ signal: String, after: Bool = false,
                        _ handler: @escaping @MainActor () -> Void) -> gulong {
        let thunk: @convention(c) (gpointer?, gpointer?) -> Void = { _, data in
            guard let data else { return }
            let box = Unmanaged<VoidBox>.fromOpaque(data).takeUnretainedValue()
            MainActor.assumeIsolated { box.handler() }
        }
        let release: GClosureNotify = { data, _ in
            guard let data else { return }
            Unmanaged<VoidBox>.fromOpaque(data).release()
        }
        return g_signal_connect_data(instance, signal, unsafeBitCast(thunk, to: GCallback.self),
                                     Unmanaged.passRetained(VoidBox(handler)).toOpaque(), release,
                                     after ? G_CONNECT_AFTER : GConnectFlags(rawValue: 0))
    }

    /// Like `connect`, for a handler that runs at the first emission only: the connection goes
    /// before the handler runs.
    static func connectOnce(_ instance: UnsafeMutableRawPointer, _ signal: String, after: Bool = false,
                            _ handler: @escaping @MainActor () -> Void) {
        final class Connection { var id: gulong = 0 }
        let connection = Connection()
        connection.id = connect(instance, signal, after: after) {
            g_signal_handler_disconnect(instance, connection.id)
            handler()
        }
    }

    /// For signals whose handler takes the instance and one pointer: the list item
    /// factory's `setup`/`bind`/`unbind`/`teardown`, …
    @discardableResult
    static func connect(_ instance: UnsafeMutableRawPointer, _ signal: String,
                        _ handler: @escaping @MainActor (UnsafeMutableRawPointer?) -> Void) -> gulong {
        let thunk: @convention(c) (gpointer?, gpointer?, gpointer?) -> Void = { _, argument, data in
            guard let data else { return }
            let box = Unmanaged<PointerBox>.fromOpaque(data).takeUnretainedValue()
            MainActor.assumeIsolated { box.handler(argument) }
        }
        let release: GClosureNotify = { data, _ in
            guard let data else { return }
            Unmanaged<PointerBox>.fromOpaque(data).release()
        }
        return g_signal_connect_data(instance, signal, unsafeBitCast(thunk, to: GCallback.self),
                                     Unmanaged.passRetained(PointerBox(handler)).toOpaque(), release,
                                     GConnectFlags(rawValue: 0))
    }

    /// For signals whose handler takes the instance and two unsigned integers:
    /// `GtkSelectionModel::selection-changed` (position, count), …
    @discardableResult
    static func connect(_ instance: UnsafeMutableRawPointer, _ signal: String,
                        _ handler: @escaping @MainActor (UInt32, UInt32) -> Void) -> gulong {
        let thunk: @convention(c) (gpointer?, guint, guint, gpointer?) -> Void = { _, first, second, data in
            guard let data else { return }
            let box = Unmanaged<PairBox>.fromOpaque(data).takeUnretainedValue()
            MainActor.assumeIsolated { box.handler(first, second) }
        }
        let release: GClosureNotify = { data, _ in
            guard let data else { return }
            Unmanaged<PairBox>.fromOpaque(data).release()
        }
        return g_signal_connect_data(instance, signal, unsafeBitCast(thunk, to: GCallback.self),
                                     Unmanaged.passRetained(PairBox(handler)).toOpaque(), release,
                                     GConnectFlags(rawValue: 0))
    }

    /// For signals whose handler takes the instance and one unsigned integer:
    /// `GtkListView::activate` (position), …
    @discardableResult
    static func connect(_ instance: UnsafeMutableRawPointer, _ signal: String,
                        _ handler: @escaping @MainActor (UInt32) -> Void) -> gulong {
        let thunk: @convention(c) (gpointer?, guint, gpointer?) -> Void = { _, value, data in
            guard let data else { return }
            let box = Unmanaged<UnsignedBox>.fromOpaque(data).takeUnretainedValue()
            MainActor.assumeIsolated { box.handler(value) }
        }
        let release: GClosureNotify = { data, _ in
            guard let data else { return }
            Unmanaged<UnsignedBox>.fromOpaque(data).release()
        }
        return g_signal_connect_data(instance, signal, unsafeBitCast(thunk, to: GCallback.self),
                                     Unmanaged.passRetained(UnsignedBox(handler)).toOpaque(), release,
                                     GConnectFlags(rawValue: 0))
    }

    /// The modifiers a key handler tells apart (not Caps Lock or Num Lock).
    static let keyModifiers = GDK_SHIFT_MASK.rawValue | GDK_CONTROL_MASK.rawValue | GDK_ALT_MASK.rawValue
        | GDK_SUPER_MASK.rawValue

    /// For `GtkEventControllerKey::key-pressed`: return true when the key was handled.
    @discardableResult
    static func connectKeyPressed(_ controller: UnsafeMutableRawPointer,
                                  _ handler: @escaping @MainActor (UInt32, GdkModifierType) -> Bool) -> gulong {
        let thunk: @convention(c) (gpointer?, guint, guint, GdkModifierType, gpointer?) -> gboolean = { _, keyval, _, state, data in
            guard let data else { return 0 }
            let box = Unmanaged<KeyBox>.fromOpaque(data).takeUnretainedValue()
            return MainActor.assumeIsolated { box.handler(keyval, state) } ? 1 : 0
        }
        let release: GClosureNotify = { data, _ in
            guard let data else { return }
            Unmanaged<KeyBox>.fromOpaque(data).release()
        }
        return g_signal_connect_data(controller, "key-pressed", unsafeBitCast(thunk, to: GCallback.self),
                                     Unmanaged.passRetained(KeyBox(handler)).toOpaque(), release,
                                     GConnectFlags(rawValue: 0))
    }

    /// For `GtkEventControllerScroll::scroll` (the deltas across and down): return true when
    /// the scroll was handled (it goes no further).
    @discardableResult
    static func connectScroll(_ controller: UnsafeMutableRawPointer, _ handler: @escaping @MainActor (Double, Double) -> Bool) -> gulong {
        let thunk: @convention(c) (gpointer?, gdouble, gdouble, gpointer?) -> gboolean = { _, dx, dy, data in
            guard let data else { return 0 }
            let box = Unmanaged<ScrollBox>.fromOpaque(data).takeUnretainedValue()
            return MainActor.assumeIsolated { box.handler(dx, dy) } ? 1 : 0
        }
        let release: GClosureNotify = { data, _ in
            guard let data else { return }
            Unmanaged<ScrollBox>.fromOpaque(data).release()
        }
        return g_signal_connect_data(controller, "scroll", unsafeBitCast(thunk, to: GCallback.self),
                                     Unmanaged.passRetained(ScrollBox(handler)).toOpaque(), release,
                                     GConnectFlags(rawValue: 0))
    }

    /// For signals whose handler takes only the instance and returns a boolean:
    /// `GtkWindow::close-request` (true stops the close), …
    @discardableResult
    static func connectReturning(_ instance: UnsafeMutableRawPointer, _ signal: String,
                                 _ handler: @escaping @MainActor () -> Bool) -> gulong {
        let thunk: @convention(c) (gpointer?, gpointer?) -> gboolean = { _, data in
            guard let data else { return 0 }
            let box = Unmanaged<BoolBox>.fromOpaque(data).takeUnretainedValue()
            return MainActor.assumeIsolated { box.handler() } ? 1 : 0
        }
        let release: GClosureNotify = { data, _ in
            guard let data else { return }
            Unmanaged<BoolBox>.fromOpaque(data).release()
        }
        return g_signal_connect_data(instance, signal, unsafeBitCast(thunk, to: GCallback.self),
                                     Unmanaged.passRetained(BoolBox(handler)).toOpaque(), release,
                                     GConnectFlags(rawValue: 0))
    }

    /// For `GtkWidget::query-tooltip`: the `GtkTooltip` to fill; return whether to show it
    /// (the widget needs `has-tooltip` set).
    @discardableResult
    static func connectQueryTooltip(_ widget: UnsafeMutableRawPointer, _ handler: @escaping @MainActor (OpaquePointer) -> Bool) -> gulong {
        let thunk: @convention(c) (gpointer?, Int32, Int32, gboolean, OpaquePointer?, gpointer?) -> gboolean = { _, _, _, _, tooltip, data in
            guard let tooltip, let data else { return 0 }
            let box = Unmanaged<TooltipBox>.fromOpaque(data).takeUnretainedValue()
            return MainActor.assumeIsolated { box.handler(tooltip) } ? 1 : 0
        }
        let release: GClosureNotify = { data, _ in
            guard let data else { return }
            Unmanaged<TooltipBox>.fromOpaque(data).release()
        }
        return g_signal_connect_data(widget, "query-tooltip", unsafeBitCast(thunk, to: GCallback.self),
                                     Unmanaged.passRetained(TooltipBox(handler)).toOpaque(), release,
                                     GConnectFlags(rawValue: 0))
    }

    /// For `GApplication::command-line`: the `GApplicationCommandLine`; return the exit status
    /// of the invocation (which the remote process exits with).
    @discardableResult
    static func connectCommandLine(_ application: UnsafeMutableRawPointer,
                                   _ handler: @escaping @MainActor (UnsafeMutablePointer<GApplicationCommandLine>) -> Int32) -> gulong {
        let thunk: @convention(c) (gpointer?, UnsafeMutablePointer<GApplicationCommandLine>?, gpointer?) -> gint = { _, commandLine, data in
            guard let data, let commandLine else { return 1 }
            let box = Unmanaged<CommandLineBox>.fromOpaque(data).takeUnretainedValue()
            return MainActor.assumeIsolated { box.handler(commandLine) }
        }
        let release: GClosureNotify = { data, _ in
            guard let data else { return }
            Unmanaged<CommandLineBox>.fromOpaque(data).release()
        }
        return g_signal_connect_data(application, "command-line", unsafeBitCast(thunk, to: GCallback.self),
                                     Unmanaged.passRetained(CommandLineBox(handler)).toOpaque(), release,
                                     GConnectFlags(rawValue: 0))
    }

    /// For `GtkDropTarget::drop`: the dropped value; return true when it was taken.
    @discardableResult
    static func connectDrop(_ target: UnsafeMutableRawPointer, _ handler: @escaping @MainActor (UnsafePointer<GValue>) -> Bool) -> gulong {
        let thunk: @convention(c) (gpointer?, UnsafePointer<GValue>?, gdouble, gdouble, gpointer?) -> gboolean = { _, value, _, _, data in
            guard let data, let value else { return 0 }
            let box = Unmanaged<DropBox>.fromOpaque(data).takeUnretainedValue()
            return MainActor.assumeIsolated { box.handler(value) } ? 1 : 0
        }
        let release: GClosureNotify = { data, _ in
            guard let data else { return }
            Unmanaged<DropBox>.fromOpaque(data).release()
        }
        return g_signal_connect_data(target, "drop", unsafeBitCast(thunk, to: GCallback.self),
                                     Unmanaged.passRetained(DropBox(handler)).toOpaque(), release,
                                     GConnectFlags(rawValue: 0))
    }

    /// For `GtkGestureLongPress::pressed` (x, y).
    @discardableResult
    static func connectLongPressed(_ gesture: UnsafeMutableRawPointer, _ handler: @escaping @MainActor (Double, Double) -> Void) -> gulong {
        let thunk: @convention(c) (gpointer?, gdouble, gdouble, gpointer?) -> Void = { _, x, y, data in
            guard let data else { return }
            let box = Unmanaged<PointBox>.fromOpaque(data).takeUnretainedValue()
            MainActor.assumeIsolated { box.handler(x, y) }
        }
        let release: GClosureNotify = { data, _ in
            guard let data else { return }
            Unmanaged<PointBox>.fromOpaque(data).release()
        }
        return g_signal_connect_data(gesture, "pressed", unsafeBitCast(thunk, to: GCallback.self),
                                     Unmanaged.passRetained(PointBox(handler)).toOpaque(), release,
                                     GConnectFlags(rawValue: 0))
    }

    /// For `GtkGestureClick::pressed` (number of presses, x, y).
    @discardableResult
    static func connectPressed(_ gesture: UnsafeMutableRawPointer,
                               _ handler: @escaping @MainActor (Int32, Double, Double) -> Void) -> gulong {
        let thunk: @convention(c) (gpointer?, gint, gdouble, gdouble, gpointer?) -> Void = { _, presses, x, y, data in
            guard let data else { return }
            let box = Unmanaged<PressBox>.fromOpaque(data).takeUnretainedValue()
            MainActor.assumeIsolated { box.handler(presses, x, y) }
        }
        let release: GClosureNotify = { data, _ in
            guard let data else { return }
            Unmanaged<PressBox>.fromOpaque(data).release()
        }
        return g_signal_connect_data(gesture, "pressed", unsafeBitCast(thunk, to: GCallback.self),
                                     Unmanaged.passRetained(PressBox(handler)).toOpaque(), release,
                                     GConnectFlags(rawValue: 0))
    }
}
