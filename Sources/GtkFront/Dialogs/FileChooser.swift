import CGtk
import FoundationEssentials

/// Asks for a file to save to or open, or for a folder: GtkFileDialog on GTK 4.10+,
/// GtkFileChooserNative on 4.8 (switched in the C shim).
@MainActor
enum FileChooser {
    private final class Box {
        let chosen: @MainActor (URL?) -> Void
        init(_ chosen: @escaping @MainActor (URL?) -> Void) { self.chosen = chosen }
    }

    /// `filter`: when set, only files whose names end in its suffix (any case) are offered,
    /// under its name ("GGUF models", "gguf").
    static func choose(over parent: UnsafeMutablePointer<GtkWidget>, title: String, saving suggestedName: String?,
                       folder: Bool = false, filter: (name: String, suffix: String)? = nil,
                       chosen: @escaping @MainActor (URL?) -> Void) {
        let callback: agent_file_chosen = { path, context in
            guard let context else { return }
            let box = Unmanaged<Box>.fromOpaque(context).takeRetainedValue()
            let url = path.map { URL(filePath: String(cString: $0)) }
            MainActor.assumeIsolated { box.chosen(url) }
        }
        let mode = folder ? AGENT_CHOOSE_FOLDER : suggestedName == nil ? AGENT_CHOOSE_OPEN : AGENT_CHOOSE_SAVE
        agent_choose_filtered_file(parent.cast(), title, Int32(mode), suggestedName, filter?.name, filter?.suffix, callback,
                                   Unmanaged.passRetained(Box(chosen)).toOpaque())
    }
}
