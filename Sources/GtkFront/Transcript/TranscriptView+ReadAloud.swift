import Glibc
import AgentCore
import CGtk
import FoundationEssentials

/// Reading replies aloud from the transcript: which reply, the word followed on its row and kept in view.
extension TranscriptView {
    /// Reads reply `id` aloud from its row, or stops when it is the one being read.
    func toggleReading(_ id: UUID) {
        if readAloud.readingMessageID == id {
            readAloud.stop()
            return
        }
        guard canRead(id), let row = boundRows[id] else { return }
        followsReading = true
        readAloud.read(row.spokenReply().text, messageID: id)
    }

    /// Ctrl+Shift+S: the reply whose row holds the keyboard focus is read aloud, or stops being
    /// read; with no reply focused, what is read stops, or else the chat's last reply is read
    /// (its newest messages loaded again when the view had gone far up, unless a message is
    /// being edited).
    func readFocusedReply() {
        if let focused = boundRows.first(where: { $0.value.focusedPart != nil && canRead($0.key) }) {
            toggleReading(focused.key)
        } else if readAloud.readingMessageID != nil {
            readAloud.stop()
        } else {
            viewModel.showNewest()
            // The newest messages stay away only while a message is edited: no last reply to read then.
            guard viewModel.pager?.hasLater != true,
                  let last = viewModel.conversation.messages.last(where: { $0.role == .assistant }), canRead(last.id) else { return }
            if boundRows[last.id] != nil {
                toggleReading(last.id)
            } else if let index = viewModel.conversation.index(of: last.id) {
                pendingRead = last.id
                agent_list_view_scroll_to(listView, guint(index))
            }
        }
    }

    /// A reply with words that is not being written.
    func canRead(_ id: UUID) -> Bool {
        guard let index = viewModel.conversation.index(of: id) else { return false }
        let message = viewModel.conversation[index]
        return message.role == .assistant && message.state != .streaming && message.state != .sending && !message.text.isEmpty
    }

    /// Reading a message no longer shown (another chat, another version) stops.
    func stopReadingIfGone() {
        guard let id = readAloud.readingMessageID, viewModel.conversation.index(of: id) == nil else { return }
        readAloud.stop()
    }

    /// Shows on the rows which reply is read and which word, and keeps the word in view.
    func showReading() {
        let reading = readAloud.readingMessageID
        for (id, row) in boundRows where id != reading { row.showReading(nil) }
        guard let reading, let row = boundRows[reading], let text = readAloud.text else { return }
        if let place = row.showReading((text, readAloud.currentWord)) { keepInView(place) }
    }

    /// Scrolls the spoken word a third of the way down the view when it is out of it — unless
    /// the user scrolled it away, until it is back in view.
    func keepInView(_ place: SpokenReply.Place) {
        var point = graphene_point_t(x: 0, y: Float(place.y))
        var shown = graphene_point_t()
        guard gtk_widget_compute_point(place.widget, listView, &point, &shown) != 0 else { return }
        let height = Double(gtk_widget_get_height(listView))
        let top = Double(shown.y)
        if top >= 0 && top + place.height <= height {
            followsReading = true
            return
        }
        guard followsReading, height > 0 else { return }
        followsNewest = false
        settingScroll = true
        gtk_adjustment_set_value(adjustment, max(0, gtk_adjustment_get_value(adjustment) + top - height / 3))
        settingScroll = false
    }
}
