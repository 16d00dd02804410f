import AgentCore
import CGtk
import FoundationEssentials

/// The local model's groups in Preferences › Models: which model Agent runs on this computer
/// when chats go to "This computer" — a small built-in, or a GGUF file the user chose
/// (remembered, listed beside the built-ins, shown as missing when it has gone) — and how
/// many threads it uses.
@MainActor
final class LocalModelGroups {
    /// One radio button per built-in, in `LocalModel.all` order.
    let choices: [UnsafeMutablePointer<GtkWidget>]
    /// The rows of the chosen files, in the order they were chosen.
    private(set) var fileRows: [LocalModelFileRow] = []
    /// "Choose a GGUF File…": opens the file chooser.
    let chooseRow: UnsafeMutablePointer<GtkWidget>
    let threads: UnsafeMutablePointer<GtkWidget>
    /// The alert showing why a file cannot be used, while it is open.
    private(set) var alert: MessageDialog?
    private let filesGroup: UnsafeMutablePointer<GtkWidget>
    private let settings: SettingsStore
    private let window: UnsafeMutablePointer<GtkWidget>

    /// Adds its groups to `page`.
    init(in page: UnsafeMutablePointer<GtkWidget>, settings: SettingsStore, window: UnsafeMutablePointer<GtkWidget>) {
        self.settings = settings
        self.window = window
        let group = PreferenceRows.group(in: page, title: tr("The Model on This Computer"),
                                         description: tr("When chats go to “This computer”, Agent runs llama.cpp with one of these models. It starts with the first message and stops when Agent quits."))
        let runtime = try? LocalRuntime.locate()
        var buttons: [UnsafeMutablePointer<GtkWidget>] = []
        for model in LocalModel.all {
            let button: UnsafeMutablePointer<GtkWidget> = gtk_check_button_new()
            if let first = buttons.first { gtk_check_button_set_group(button.cast(), first.cast()) }
            gtk_check_button_set_active(button.cast(), settings.localModel == model ? 1 : 0)
            let installed = runtime?.has(model) ?? false
            let row: UnsafeMutablePointer<GtkWidget> = adw_action_row_new()
            adw_preferences_row_set_use_markup(row.cast(), 0)
            adw_preferences_row_set_title(row.cast(), model.displayName)
            adw_action_row_set_subtitle(row.cast(), installed ? Self.describe(model) : tr("%1$s Not installed: run %2$s.", Self.describe(model), model.installCommand))
            adw_action_row_add_prefix(row.cast(), button)
            adw_action_row_set_activatable_widget(row.cast(), button)
            agent_accessible_set_label(button, model.displayName)
            PreferenceRows.add(row, to: group)
            buttons.append(button)
            Signals.connect(button.raw, "toggled") {
                guard gtk_check_button_get_active(button.cast()) != 0, settings.localModel != model else { return }
                settings.localModel = model
            }
        }
        choices = buttons

        filesGroup = PreferenceRows.group(in: page, title: tr("Your GGUF Files"),
                                          description: tr("Any model in llama.cpp’s GGUF format, such as those on Hugging Face. It runs with its own chat template and context, up to %sk tokens.",
                                                 UserLocale.number(LocalModelServer.contextCap / 1024)))
        let icon: UnsafeMutablePointer<GtkWidget> = gtk_image_new_from_icon_name("document-open-symbolic")
        chooseRow = PreferenceRows.actionRow(title: tr("Choose a GGUF File…"))
        adw_action_row_add_suffix(chooseRow.cast(), icon)
        gtk_list_box_row_set_activatable(chooseRow.cast(), 1)
        gtk_widget_set_name(chooseRow, "choose-gguf")

        let performance = PreferenceRows.group(in: page, title: tr("Performance"))
        let cores = ProcessInfo.processInfo.activeProcessorCount
        let threadsRow = PreferenceRows.spinRow(title: tr("Threads"),
                                                subtitle: tr("CPU threads the model computes with; 0: one per core (%s here).", UserLocale.number(cores)),
                                                range: 0...1024, step: 1, settings: settings.root, key: "local-threads")
        threads = threadsRow.spin
        PreferenceRows.add(threadsRow.row, to: performance)
        Signals.connect(chooseRow.raw, "activated") { [weak self] in self?.chooseFile() }
        // A file chosen elsewhere (gsettings, an older settings file) is listed like the others.
        if let current = settings.localModel.file, !settings.localModelFiles.contains(current) {
            settings.localModelFiles.append(current)
        }
        showFiles()
    }

    /// Lists the remembered files, then the row that adds one (held while it is out of the
    /// group, which owns it).
    private func showFiles() {
        for row in fileRows { adw_preferences_group_remove(filesGroup.cast(), row.widget) }
        let placed = gtk_widget_get_parent(chooseRow) != nil
        if placed {
            g_object_ref(chooseRow.raw)
            adw_preferences_group_remove(filesGroup.cast(), chooseRow)
        }
        defer { if placed { g_object_unref(chooseRow.raw) } }
        fileRows = settings.localModelFiles.map { file in
            let row = LocalModelFileRow(file: file, group: choices[0])
            row.isSelected = settings.localModel.file == file
            row.onSelected = { [weak self] in self?.select(row) }
            row.onRemove = { [weak self] in self?.remove(file) }
            PreferenceRows.add(row.widget, to: filesGroup)
            return row
        }
        PreferenceRows.add(chooseRow, to: filesGroup)
    }

    private func chooseFile() {
        FileChooser.choose(over: window, title: tr("Choose a GGUF Model File"), saving: nil, filter: (tr("GGUF models"), "gguf")) { [weak self] url in
            guard let self, let url else { return }
            add(url)
        }
    }

    /// Remembers `file` and makes it the local model, once its header shows it is GGUF.
    private func add(_ file: URL) {
        do {
            _ = try GGUFHeader.read(file)
        } catch {
            problem(tr("Not a Model File"), error.description)
            return
        }
        if !settings.localModelFiles.contains(file) { settings.localModelFiles.append(file) }
        settings.localModel = .file(file)
        showFiles()
    }

    private func select(_ row: LocalModelFileRow) {
        guard row.isPresent else {
            problem(tr("Model File Missing"), tr("“%1$s” is no longer at %2$s. Choose it again from where it is now, or remove it from the list.",
                                                 row.file.lastPathComponent, row.file.path))
            showFiles()
            if let index = LocalModel.all.firstIndex(of: settings.localModel) { gtk_check_button_set_active(choices[index].cast(), 1) }
            return
        }
        settings.localModel = .file(row.file)
    }

    private func remove(_ file: URL) {
        settings.localModelFiles.removeAll { $0 == file }
        if settings.localModel.file == file {
            settings.localModel = .smolLM2
            gtk_check_button_set_active(choices[0].cast(), 1)
        }
        showFiles()
    }

    private func problem(_ heading: String, _ message: String) {
        alert = ErrorAlert.show(over: window, heading: heading, message: message) { [weak self] in self?.alert = nil }
    }

    private static func describe(_ model: LocalModel) -> String {
        model == .smolLM2 ? tr("The smallest and quickest; plain chat.") : tr("Larger and slower; can call tools (location, date and time).")
    }
}
