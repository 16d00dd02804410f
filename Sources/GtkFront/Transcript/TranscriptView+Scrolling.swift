import AgentCore
import CGtk
import FoundationEssentials

/// Scrolling the transcript: following the newest text while the user is at the bottom,
/// Page Up and Page Down from the message field, and loading the chat's earlier (or later)
/// messages as the view nears its top (or bottom); the view model lets go of as many at the
/// other end (`ChatViewModel.loadedLimit`, set here from how tall the rows are).
extension TranscriptView {
    /// The message whose row is at the top edge of the view, as what is drawn there shows
    /// (benchmarks): the widget a click just below the edge would reach, and its row; when
    /// the edge falls in the space between two rows (or above the first), the row just below.
    /// Rows bound out of view may keep a stale place, so their bounds cannot tell.
    var topMessageID: UUID? {
        let x = Double(gtk_widget_get_width(listView)) / 2
        // Rows are 12 px apart and the first starts 14 px down (style.css: `.transcript`
        // padding, `.message-row` margin): a gap is crossed within 33 px.
        for y in stride(from: 1.0, through: 33.0, by: 4.0) {
            var widget = gtk_widget_pick(listView, x, y, GtkPickFlags(rawValue: GTK_PICK_INSENSITIVE.rawValue | GTK_PICK_NON_TARGETABLE.rawValue))
            while let current = widget, current != listView {
                if let (id, _) = boundRows.first(where: { $0.value.root == current }) { return id }
                widget = gtk_widget_get_parent(current)
            }
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
        let bottom = gtk_adjustment_get_upper(adjustment) - gtk_adjustment_get_page_size(adjustment)
        revealing = nil
        fillNearEnds()
        followsNewest = value >= bottom - 2 && viewModel.pager?.hasLater != true
        followsReading = false
    }

    /// Near the top, the chat's earlier messages come; near the bottom, its later ones (a chat
    /// opened at a search hit, or scrolled far up): within two pages of either end of what
    /// is loaded.
    private func fillNearEnds() {
        guard revealing == nil else { return }
        let value = gtk_adjustment_get_value(adjustment)
        let page = gtk_adjustment_get_page_size(adjustment)
        let bottom = gtk_adjustment_get_upper(adjustment) - page
        let nearTop = value < 2 * page, nearBottom = value > bottom - 2 * page
        // Both ends near with all that may be loaded (short messages in a tall window): each
        // load would let go of what the other end just loaded, so only an end the view has
        // reached loads more.
        if nearTop, nearBottom, viewModel.conversation.count >= viewModel.loadedLimit {
            if value <= 0 { fill(.earlier) } else if value >= bottom { fill(.later) }
            return
        }
        if nearTop { fill(.earlier) }
        if nearBottom { fill(.later) }
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
            // At the end already: the messages beyond it come (the view cannot move to ask for them).
            fill(up ? .earlier : .later)
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

    /// Which end of the loaded messages to add to.
    enum End {
        case earlier, later
    }

    /// Loads messages beyond `end` a few a frame, from the next frame on, until two pages of
    /// them are beyond the view: a page loaded at once would build all its rows in one frame,
    /// and loads asked for by a held key faster than frames would come before any layout.
    private func fill(_ end: End) {
        guard !fillScheduled.contains(end),
              (end == .earlier ? viewModel.pager?.hasEarlier : viewModel.pager?.hasLater) == true else { return }
        fillScheduled.insert(end)
        let chat = viewModel.chat?.id
        FrameTick.once(on: listView) { [weak self] in
            guard let self else { return }
            fillScheduled.remove(end)
            // Another chat opened since: its own scrolling asks for its own.
            guard viewModel.chat?.id == chat else { return }
            fitLoadedLimit(keeping: end)
            switch end {
            case .earlier: viewModel.loadEarlier(limit: Self.loadedPerFrame)
            case .later: viewModel.loadLater(limit: Self.loadedPerFrame)
            }
        }
    }

    /// How many pages of the view the loaded messages should make: the page shown and the two
    /// `fillNearEnds` keeps beyond it either way, with room to spare.
    static let loadedPages = 8.0

    /// Keeps as many messages loaded as make about `loadedPages` of the view from `end`, the
    /// end being loaded (the other end is let go of): each row's height where the list has
    /// laid it out (it builds a row for each), the loaded rows' average for the others. No
    /// more: every frame that loads costs GTK work in proportion to the rows the list holds
    /// (measured with bench/scroll.py: its CSS validation and the insertion go through them all).
    private func fitLoadedLimit(keeping end: End) {
        let messages = viewModel.conversation.messages
        let upper = gtk_adjustment_get_upper(adjustment), page = gtk_adjustment_get_page_size(adjustment)
        guard !messages.isEmpty, upper > 0, page > 0 else { return }
        let average = upper / Double(messages.count)
        let wanted = Self.loadedPages * page
        var covered = 0.0
        var rows = 0
        for message in end == .earlier ? messages : messages.reversed() {
            guard covered < wanted else { break }
            let height = boundRows[message.id].map { Double(gtk_widget_get_height($0.root)) } ?? 0
            covered += height > 0 ? height : average
            rows += 1
        }
        if covered < wanted { rows += Int(((wanted - covered) / average).rounded(.up)) }
        viewModel.loadedLimit = rows
    }

    /// After each frame's layout: stay at the bottom while following; else a search hit not
    /// yet in view is scrolled to (`revealFocusedMessage`), and near either end of what is
    /// loaded more messages come (`fill`).
    private func keepNewestInView() {
        reconfiguredThisFrame = false
        guard followsNewest else {
            revealFocusedMessage()
            fillNearEnds()
            return
        }
        let bottom = gtk_adjustment_get_upper(adjustment) - gtk_adjustment_get_page_size(adjustment)
        guard gtk_adjustment_get_value(adjustment) != bottom else { return }
        settingScroll = true
        gtk_adjustment_set_value(adjustment, bottom)
        settingScroll = false
    }
}
