import Glibc
import CGtk

/// A modal question or alert with buttons, over a window: `GtkAlertDialog` on GTK 4.10+,
/// `GtkMessageDialog` on 4.8 (chosen at compile time in the C shim).
@MainActor
enum Dialog {
    private final class Box {
        let answered: @MainActor (Int) -> Void
        init(_ answered: @escaping @MainActor (Int) -> Void) { self.answered = answered }
    }

    /// Shows the dialog; `answered` runs once with the chosen button's index (`cancelIndex`
    /// when dismissed). Returns the dialog window when GTK exposes one (4.8).
    @discardableResult
    static func show(over parent: UnsafeMutablePointer<GtkWidget>, isError: Bool, heading: String, message: String,
                     buttons: [String], defaultIndex: Int, cancelIndex: Int,
                     answered: @escaping @MainActor (Int) -> Void) -> UnsafeMutablePointer<GtkWindow>? {
        let callback: agent_dialog_answered = { choice, context in
            guard let context else { return }
            let box = Unmanaged<Box>.fromOpaque(context).takeRetainedValue()
            MainActor.assumeIsolated { box.answered(Int(choice)) }
        }
        var labels = buttons.map { strdup($0) }
        labels.append(nil)
        defer { labels.forEach { free($0) } }
        return labels.withUnsafeBufferPointer { list in
            list.withMemoryRebound(to: UnsafePointer<CChar>?.self) { constList in
                agent_show_dialog(parent.cast(), isError ? 1 : 0, heading, message, constList.baseAddress, Int32(buttons.count),
                                  Int32(defaultIndex), Int32(cancelIndex), callback,
                                  Unmanaged.passRetained(Box(answered)).toOpaque())
            }
        }
    }
}
