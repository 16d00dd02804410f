import AgentCore
import CGtk
import FoundationEssentials

/// Files given to the window other than through the Attach button: dropped on it, or
/// pasted into the message field (files copied in a file manager, or an image such as a
/// screenshot). They join the composer's files, which read and check them.
@MainActor
enum FileIntake {
    private final class Box {
        let files: ComposerFiles
        init(_ files: ComposerFiles) { self.files = files }
    }

    /// Takes files dropped anywhere on `widget`.
    static func acceptDrops(on widget: UnsafeMutablePointer<GtkWidget>, into files: ComposerFiles) {
        guard let target = gtk_drop_target_new(gdk_file_list_get_type(), GDK_ACTION_COPY) else { return }
        Signals.connectDrop(UnsafeMutableRawPointer(target)) { value in
            let paths = CStringArray.take(agent_file_list_paths(value))
            guard !paths.isEmpty else { return false }
            files.add(paths.map { URL(filePath: $0) })
            return true
        }
        gtk_widget_add_controller(widget, target)
    }

    /// Takes a paste into `widget` that holds files or only an image; false when it holds
    /// text, which the field pastes itself.
    static func paste(from widget: UnsafeMutablePointer<GtkWidget>, into files: ComposerFiles) -> Bool {
        let clipboard = gtk_widget_get_clipboard(widget)
        let context = Unmanaged.passRetained(Box(files)).toOpaque()
        switch agent_clipboard_attachment_kind(clipboard) {
        case 1:
            agent_clipboard_read_files(clipboard, { paths, context in
                guard let context else { return }
                let box = Unmanaged<Box>.fromOpaque(context).takeRetainedValue()
                // The paths stay the caller's: a copy is taken.
                let urls = CStringArray.take(g_strdupv(paths)).map { URL(filePath: $0) }
                MainActor.assumeIsolated { box.files.add(urls) }
            }, context)
            return true
        case 2:
            agent_clipboard_read_png(clipboard, { bytes, length, context in
                guard let context else { return }
                let box = Unmanaged<Box>.fromOpaque(context).takeRetainedValue()
                guard let bytes else { return }
                let data = Data(bytes: bytes, count: Int(length))
                MainActor.assumeIsolated { box.files.add(data: data, name: tr("Pasted image") + ".png") }
            }, context)
            return true
        default:
            Unmanaged<Box>.fromOpaque(context).release()
            return false
        }
    }
}
