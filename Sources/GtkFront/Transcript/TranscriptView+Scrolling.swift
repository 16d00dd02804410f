import AgentCore
import CGtk
import FoundationEssentials

/// Scrolling the transcript: following the newest text while the user is at the bottom,
/// Page Up and Page Down from the message field, and loading the chat's earlier (or later)
/// messages as the view nears its top (or bottom).
extension TranscriptView {
    /// The message whose row is at the top edge of the view, as what is drawn there shows
    /// (benchmarks): the widget a click just below the edge would reach, and its row. Rows
    /// bound out of view may keep a stale place, so their bounds cannot tell.
    var topMessageID: UUID? {
        let x = Double(gtk_widget_get_width(listView)) / 2
        var widget = gtk_widget_pick(listView, x, 1, GtkPickFlags(rawValue: GTK_PICK_INSENSITIVE.rawValue | GTK_PICK_NON_TARGETABLE.rawValue))
        while let current = widget, current != listView {
            if let (id, _) = boundRows.first(where: { $0.value.root == current }) { return id }
            widget = gtk_widget_get_parent(current)
        }
        return nil
    }

    /// Watches the user's scrolling and, after each frame's layout, keeps the newest text in view.
    func connectScrolling() {
        let adjustmentObject = UnsafeMutableRawPointer(adjustment)
        Signals.connect(adjustmentObject, "changed") { [weak self] in
            self?.reconfiguredThisFrame = true
        }
        Signals.connect(adjustmentObject, "value-changed") { [weak self] in
            self?.scrollPositionChanged()
        }
        Signals.connect(listView.raw, "realize") { [weak self] in
            guard let self, let clock = gtk_widget_get_frame_clock(listView) else { return }
            frameClock = UnsafeMutableRawPointer(clock)
            layoutHandler = Signals.connect(UnsafeMutableRawPointer(clock), "layout", after: true) { [weak self] in
                self?.keepNewestInView()
            }
        }
        Signals.connect(listView.raw, "unrealize") { [weak self] in
            guard let self, let clock = frameClock else { return }
            g_signal_handler_disconnect(clock, layoutHandler)
            frameClock = nil
        }
    }

    /// A scroll the user made decides whether to follow; GTK's own reconfiguring does not.
    /// Near the top the chat's earlier messages are loaded, near the bottom its later ones
    /// (a chat opened at a search hit).
    private func scrollPositionChanged() {
        guard !settingScroll, !reconfiguredThisFrame else { return }
        userScrolled()
    }

    /// The user moved the view (see `scrollPositionChanged`).
    private func userScrolled() {
        let value = gtk_adjustment_get_value(adjustment)
        let page = gtk_adjustment_get_page_size(adjustment)
        let bottom = gtk_adjustment_get_upper(adjustment) - page
        if value < 2 * page { fillAbove() }
        if value > bottom - page, viewModel.pager?.hasLater == true { viewModel.loadLater() }
        followsNewest = value >= bottom - 2 && viewModel.pager?.hasLater != true
        followsReading = false
    }

    /// Scrolls the conversation a page up or down, as the user asked (Page Up and Page Down
    /// in the message field); false when it cannot go further that way.
    func scrollPage(up: Bool) -> Bool {
        let value = gtk_adjustment_get_value(adjustment)
        let page = gtk_adjustment_get_page_size(adjustment)
        let step = gtk_adjustment_get_page_increment(adjustment) > 0 ? gtk_adjustment_get_page_increment(adjustment) : page
        let bottom = gtk_adjustment_get_upper(adjustment) - page
        let target = up ? max(0, value - step) : min(bottom, value + step)
        guard target != value else {
            // At the top already: the earlier messages come (the view cannot move to ask for them).
            if up { fillAbove() }
            return false
        }
        // The user's scroll whatever else this frame changed (`scrollPositionChanged` cannot
        // tell), taken once: a page loads near the top, once.
        settingScroll = true
        gtk_adjustment_set_value(adjustment, target)
        settingScroll = false
        userScrolled()
        return true
    }

    /// Loads earlier messages a few a frame, from the next frame on, until two pages of them
    /// are above the view: a page loaded at once would build all its rows in one frame, and
    /// loads asked for by a held key faster than frames would come before any layout.
    private func fillAbove() {
        guard !earlierScheduled, viewModel.pager?.hasEarlier == true else { return }
        earlierScheduled = true
        let chat = viewModel.chat?.id
        FrameTick.once(on: listView) { [weak self] in
            guard let self else { return }
            earlierScheduled = false
            // Another chat opened since: its own scrolling asks for its own.
            guard viewModel.chat?.id == chat else { return }
            viewModel.loadEarlier(limit: Self.earlierPerFrame)
        }
    }

    /// After each frame's layout: stay at the bottom while following; near the top, more
    /// earlier messages come (`fillAbove`).
    private func keepNewestInView() {
        reconfiguredThisFrame = false
        if !followsNewest, gtk_adjustment_get_value(adjustment) < 2 * gtk_adjustment_get_page_size(adjustment) { fillAbove() }
        guard followsNewest else { return }
        let bottom = gtk_adjustment_get_upper(adjustment) - gtk_adjustment_get_page_size(adjustment)
        guard gtk_adjustment_get_value(adjustment) != bottom else { return }
        settingScroll = true
        gtk_adjustment_set_value(adjustment, bottom)
        settingScroll = false
    }
}
