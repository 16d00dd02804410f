import AgentCore
import CGtk

/// The message field and its buttons under the transcript: Attach adds files (so do
/// dropping and pasting them), shown as chips above the field; Enter or Send sends
/// (Shift+Enter for a new line); Send shows a spinner and is disabled while a reply streams
/// or there is nothing to send; Stop appears while a reply streams.
@MainActor
final class ComposerBar {
    let widget: UnsafeMutablePointer<GtkWidget>
    let input: MessageInput
    let sendButton: UnsafeMutablePointer<GtkWidget>
    let stopButton: UnsafeMutablePointer<GtkWidget>
    let attachButton: UnsafeMutablePointer<GtkWidget>
    let shelf: AttachmentShelf
    private let sendContent: UnsafeMutablePointer<GtkWidget>
    /// "Editing a message" with Cancel, above the entry while a message is being edited.
    let editingNotice: UnsafeMutablePointer<GtkWidget>
    /// In Send, in place of its icon, while a reply streams.
    let spinner: UnsafeMutablePointer<GtkWidget>
    private let viewModel: ChatViewModel
    /// Whether `prepareToSend` has run: once per window.
    private var preparedToSend = false

    init(viewModel: ChatViewModel) {
        self.viewModel = viewModel
        widget = gtk_box_new(GTK_ORIENTATION_VERTICAL, 6)
        GtkText.addClasses(widget, "composer")
        let row: UnsafeMutablePointer<GtkWidget> = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 6)
        editingNotice = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 6)
        let editingLabel: UnsafeMutablePointer<GtkWidget> = gtk_label_new(tr("Editing a message: sending adds a new version of it, the earlier one kept"))
        gtk_label_set_xalign(editingLabel.opaque, 0)
        gtk_label_set_wrap(editingLabel.opaque, 1)
        gtk_widget_set_hexpand(editingLabel, 1)
        GtkText.addClasses(editingLabel, "dim-label", "editing-label")
        let cancelEdit = MnemonicButton.make(tr("_Cancel"))
        GtkText.addClasses(cancelEdit, "flat")
        gtk_box_append(editingNotice.cast(), editingLabel)
        gtk_box_append(editingNotice.cast(), cancelEdit)
        gtk_widget_set_visible(editingNotice, 0)

        input = MessageInput(placeholder: viewModel.instruction)
        shelf = AttachmentShelf(files: viewModel.files)
        attachButton = gtk_button_new_from_icon_name("mail-attachment-symbolic")
        GtkText.addClasses(attachButton, "flat", "circular", "attach-button")
        agent_widget_set_tooltip_text(attachButton, tr("Attach a File (Ctrl+O)"))
        agent_accessible_set_label(attachButton, tr("Attach"))
        gtk_widget_set_valign(attachButton, GTK_ALIGN_END)

        sendContent = gtk_stack_new()
        let icon: UnsafeMutablePointer<GtkWidget> = gtk_image_new_from_icon_name("go-up-symbolic")
        spinner = gtk_spinner_new()
        // Centred at its own 16 pixels, the size of the icon it stands in for.
        gtk_widget_set_halign(spinner, GTK_ALIGN_CENTER)
        gtk_widget_set_valign(spinner, GTK_ALIGN_CENTER)
        gtk_stack_add_named(sendContent.opaque, icon, "icon")
        gtk_stack_add_named(sendContent.opaque, spinner, "spinner")
        sendButton = gtk_button_new()
        gtk_button_set_child(sendButton.cast(), sendContent)
        GtkText.addClasses(sendButton, "suggested-action", "circular", "send-button")
        agent_widget_set_tooltip_text(sendButton, tr("Send (Enter; Shift+Enter for a new line)"))
        agent_accessible_set_label(sendButton, tr("Send"))

        stopButton = gtk_button_new_from_icon_name("media-playback-stop-symbolic")
        GtkText.addClasses(stopButton, "circular", "stop-button")
        agent_widget_set_tooltip_text(stopButton, tr("Stop (Esc)"))
        agent_accessible_set_label(stopButton, tr("Stop"))

        // The buttons stay round and at the bottom as the field grows.
        for button in [stopButton, sendButton] {
            gtk_widget_set_valign(button, GTK_ALIGN_END)
            gtk_widget_set_halign(button, GTK_ALIGN_CENTER)
        }
        gtk_box_append(row.cast(), attachButton)
        gtk_box_append(row.cast(), input.widget)
        gtk_box_append(row.cast(), stopButton)
        gtk_box_append(row.cast(), sendButton)
        gtk_box_append(widget.cast(), editingNotice)
        gtk_box_append(widget.cast(), shelf.widget)
        gtk_box_append(widget.cast(), row)
        Signals.connect(cancelEdit.raw, "clicked") { [weak self] in self?.viewModel.cancelEdit() }

        input.onChanged = { text in
            guard text != viewModel.draft else { return }
            viewModel.draft = text
        }
        input.onSubmit = { [weak self] in self?.viewModel.send() }
        let field = input.textView
        input.onPaste = { FileIntake.paste(from: field, into: viewModel.files) }
        Signals.connect(attachButton.raw, "clicked") { [weak self] in self?.chooseFiles() }
        Signals.connect(sendButton.raw, "clicked") { [weak self] in self?.viewModel.send() }
        Signals.connect(stopButton.raw, "clicked") { [weak self] in self?.viewModel.stop() }
        refresh()
    }

    /// The first time there is something to send (text written, a file attached, a message
    /// being edited), once the frame showing it is painted: loads ahead what the frame
    /// showing the send would otherwise load — libcurl for the request, the spinner's SVG
    /// icon (librsvg with it). After the paint, so that the loading does not compete with
    /// that frame on a machine of few cores.
    private func prepareToSend() {
        guard !preparedToSend else { return }
        preparedToSend = true
        AfterPaint.next(widget) { [spinner] in
            LibcurlPreload.begin()
            IconPreload.begin("process-working-symbolic", for: spinner)
        }
    }

    /// Asks for a file to attach (the desktop's file chooser).
    func chooseFiles() {
        guard let window = gtk_widget_get_root(widget) else { return }
        let files = viewModel.files
        FileChooser.choose(over: UnsafeMutableRawPointer(window).assumingMemoryBound(to: GtkWidget.self), title: tr("Attach a File"),
                           saving: nil) { url in
            if let url { files.add([url]) }
        }
    }

    /// Shows the view model's draft and sending state.
    func refresh() {
        input.text = viewModel.draft
        shelf.refresh()
        gtk_widget_set_sensitive(sendButton, viewModel.canSend ? 1 : 0)
        if viewModel.canSend { prepareToSend() }
        gtk_widget_set_visible(editingNotice, viewModel.editingMessageID == nil ? 0 : 1)
        gtk_widget_set_visible(stopButton, viewModel.isSending ? 1 : 0)
        if viewModel.isSending {
            gtk_stack_set_visible_child_name(sendContent.opaque, "spinner")
            gtk_spinner_start(spinner.opaque)
        } else {
            gtk_spinner_stop(spinner.opaque)
            gtk_stack_set_visible_child_name(sendContent.opaque, "icon")
        }
    }
}
