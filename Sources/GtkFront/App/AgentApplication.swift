import Glibc
import AgentCore
import CGtk
import FoundationEssentials

/// The `AdwApplication`: one chat window, the accelerators (`Shortcuts`), the stylesheet,
/// light and dark from the desktop (libadwaita's style manager follows the settings portal
/// by itself), and an orderly end: saves land, settings are written, the local model server
/// stops with the app. A second `agent` hands its command line to the running one, which
/// raises its window and does what it asks (`--new-chat`, `--open`).
@MainActor
public final class AgentApplication {
    public let application: UnsafeMutablePointer<GtkApplication>
    public let viewModel: ChatViewModel
    /// The saved chats; nil when the store could not be opened (the window then keeps the
    /// conversation in memory and says why).
    public let library: ChatLibrary?
    private let storeProblem: String?
    /// What Preferences edits; nil disables Preferences (some tests).
    public let preferences: AppPreferences?
    /// Replies read aloud through the speech service.
    public let readAloud: ReadAloud
    public private(set) var window: ChatWindow?
    /// Set once quitting has begun: nothing shows a window again.
    private var quitting = false
    /// GNOME Shell's search of the chats; nil without a library.
    private let searchProvider: SearchProvider?
    /// Benchmarks: `AGENT_REPORT_FIRST_FRAME=exit|stay` prints when the first frame is painted.
    private let firstFrameReport = ProcessInfo.processInfo.environment["AGENT_REPORT_FIRST_FRAME"]
    /// Starts setting up the local model without a click when it is missing (`agent
    /// --set-up-local-model`, as scripts/run starts it); otherwise it is only offered.
    public var setsUpLocalModel = false
    /// Benchmarks: `AGENT_REPORT_FRAMES=FILE` measures the work in each frame.
    private var frameMeter: FrameMeter?
    private var hasShutDown = false

    /// `unique`: a second launch presents the first window instead of opening another.
    /// `applicationID` differs from the app's own only in tests that run several at once;
    /// `speech` too (a test's own speech service).
    public init(viewModel: ChatViewModel, library: ChatLibrary? = nil, preferences: AppPreferences? = nil,
                storeProblem: String? = nil, unique: Bool = true, applicationID: String = AppIdentity.applicationID,
                speech: SpeechAddress = .desktop) {
        self.viewModel = viewModel
        readAloud = ReadAloud(address: speech)
        self.library = library
        self.preferences = preferences
        self.storeProblem = storeProblem
        let flags = GApplicationFlags(rawValue: G_APPLICATION_HANDLES_COMMAND_LINE.rawValue
            | (unique ? 0 : G_APPLICATION_NON_UNIQUE.rawValue))
        let searchProvider = library.map { library in
            SearchProvider(search: ShellSearch(store: library.store))
        }
        self.searchProvider = searchProvider
        // The provider is exported as the application registers on the bus, before it takes its name.
        application = agent_application_new(applicationID, flags, { connection, path, data in
            guard let connection, let path, let data else { return }
            let provider = Unmanaged<SearchProvider>.fromOpaque(data).takeUnretainedValue()
            let objectPath = String(cString: path)
            _ = MainActor.assumeIsolated { provider.export(on: connection, under: objectPath) }
        }, searchProvider.map { Unmanaged.passUnretained($0).toOpaque() })
        let app = UnsafeMutableRawPointer(application)
        // Agent has no GResources. GtkApplication would otherwise add `<app id path>/icons` to
        // the icon theme at start-up, making GTK drop the theme it has just read on a background
        // thread and read it again on the main thread while the first frame waits.
        g_application_set_resource_base_path(gApplication, nil)
        Signals.connect(app, "startup") { [weak self] in self?.startup() }
        Signals.connect(app, "activate") { [weak self] in self?.activate() }
        Signals.connectCommandLine(app) { [weak self] commandLine in self?.commandLine(commandLine) ?? 1 }
        Signals.connect(app, "shutdown") { [weak self] in self?.shutDown() }
    }

    /// The app's last moments (GApplication's `shutdown`, once the main loop has ended): saves
    /// land, the local model server and the MCP servers stop, settings are written. Tests
    /// that never run the main loop call it as they close the app. Only the first call acts.
    func shutDown() {
        guard !hasShutDown else { return }
        hasShutDown = true
        viewModel.finishSaving()
        viewModel.connection.shutdown()
        preferences?.mcp?.stopAllBlocking()
        readAloud.shutDown()
        frameMeter?.write()
        SettingsStore.sync()
    }

    private var gApplication: UnsafeMutablePointer<GApplication> {
        UnsafeMutableRawPointer(application).assumingMemoryBound(to: GApplication.self)
    }

    /// Runs the main loop until the last window closes; returns the exit status.
    public func run() -> Int32 {
        MainLoopBridge.install()
        let quitOnSignal: GSourceFunc = { data in
            g_action_group_activate_action(OpaquePointer(data), "quit", nil)
            return 1
        }
        g_unix_signal_add(SIGTERM, quitOnSignal, UnsafeMutableRawPointer(application))
        g_unix_signal_add(SIGINT, quitOnSignal, UnsafeMutableRawPointer(application))
        // A parent may have started Agent with these blocked (a test runner's worker thread
        // did): blocked, they would stay pending and the app would never end on them.
        // Unblocked only now, so one already pending reaches the handlers above.
        var endingSignals = sigset_t()
        sigemptyset(&endingSignals)
        sigaddset(&endingSignals, SIGTERM)
        sigaddset(&endingSignals, SIGINT)
        pthread_sigmask(SIG_UNBLOCK, &endingSignals, nil)
        // The arguments go to the running instance's command-line handler (or this one's).
        let status = g_application_run(gApplication, CommandLine.argc, CommandLine.unsafeArgv)
        g_object_unref(UnsafeMutableRawPointer(application))
        return status
    }

    private func startup() {
        loadStylesheet()
        Actions.add("quit", to: UnsafeMutableRawPointer(application)) { [weak self] in
            // After the key press that asked is handled: a dialog over Preferences outlives its
            // own handler, and Preferences must not be freed under it.
            Task { @MainActor [weak self] in self?.quit() }
        }
        Shortcuts.install(in: application)
        Actions.add("open-chat", to: UnsafeMutableRawPointer(application), taking: { [weak self] id in
            guard let id = UUID(uuidString: id) else { return }
            self?.perform(.open(id))
        })
        searchProvider?.open = { [weak self] chat, message in
            guard let self else { return }
            activate()
            show(chat: chat, at: message)
        }
        // Started by D-Bus for the Shell's search, Agent stays a minute after its last call.
        g_application_set_inactivity_timeout(gApplication, 60_000)
        searchProvider?.onCall = { [weak self] in
            guard let self else { return }
            g_application_hold(gApplication)
            g_application_release(gApplication)
        }
        searchProvider?.searchInApp = { [weak self] text in
            guard let self else { return }
            activate()
            window?.search(for: text)
        }
    }

    /// An `agent` command line, this process's own or a later launch's: the window comes up
    /// (or to the front) and does what it asks. Options for one run (`--server`, …) were
    /// taken by the process that parsed them first. What cannot be done is said on the
    /// launching process's stderr, with status 1.
    private func commandLine(_ commandLine: UnsafeMutablePointer<GApplicationCommandLine>) -> Int32 {
        var count: Int32 = 0
        let argv = g_application_command_line_get_arguments(commandLine, &count)
        defer { g_strfreev(argv) }
        let arguments = (1..<max(Int(count), 1)).compactMap { index in argv?[index].map { String(cString: $0) } }
        // The launching process parsed these already; a different version of agent might not have.
        guard let options = try? LaunchOptions.parse(arguments, acceptsWords: false), let request = options.windowRequest else {
            activate()
            return 0
        }
        if let refusal = perform(request) {
            agent_command_line_printerr(commandLine, "agent: \(refusal)\n")
            return 1
        }
        return 0
    }

    /// Does what `request` asks in the window; why not, when it could not.
    @discardableResult
    func perform(_ request: WindowRequest) -> String? {
        guard !quitting else { return tr("Agent is quitting") }
        activate()
        guard let window else { return tr("the window could not be opened") }
        switch request {
        case .newChat(let message):
            // A new chat would stop the reply being written.
            guard !viewModel.isSending else { return tr("a reply is being written; try again once it has finished") }
            if library != nil {
                g_action_group_activate_action(OpaquePointer(window.window), "new-chat", nil)
            } else {
                viewModel.startNewChat()
            }
            if let message, !viewModel.send(message) { return tr("the message could not be sent") }
            return nil
        case .open(let id):
            guard let library, (try? library.store.chat(id)) != nil else { return tr("there is no chat %s", id.uuidString) }
            show(chat: id, at: nil)
            return nil
        }
    }

    /// Shows chat `id` at `message`: the chat on screen is only scrolled to a message it has
    /// loaded, and opened again at one it has not unless a reply is being written in it
    /// (opening it would stop the reply).
    private func show(chat id: UUID, at message: UUID?) {
        guard let library, let window else { return }
        if viewModel.chat?.id == id {
            if let message, !viewModel.focus(on: message), !viewModel.isSending { library.open(id, focusing: message) }
        } else {
            library.open(id, focusing: message)
        }
        window.showChat()
        window.present()
    }

    private func activate() {
        guard !quitting else { return }
        if let window {
            window.present()
            return
        }
        let chatWindow = ChatWindow(application: application, viewModel: viewModel, library: library, preferences: preferences,
                                    readAloud: readAloud)
        window = chatWindow
        // Ctrl+W or the close button destroys it; a later activation builds a new one.
        Signals.connect(chatWindow.window.raw, "destroy") { [weak self] in
            self?.window = nil
            self?.viewModel.releaseLocalModel()
        }
        frameMeter = FrameMeter()
        frameMeter?.watch(chatWindow.window)
        frameMeter?.probe = { [weak chatWindow] in
            guard let chatWindow, let id = chatWindow.chatPage.transcript.topMessageID,
                  let index = chatWindow.viewModel.conversation.index(of: id) else { return nil }
            return Int(chatWindow.viewModel.conversation[index].time.timeIntervalSince1970)
        }
        library?.openInitialChat()
        chatWindow.chatPage.lastingProblem = storeProblem
        // What can wait until the first frame is on screen.
        AfterPaint.next(chatWindow.window) { [weak self] in
            guard let self else { return }
            if let report = firstFrameReport { reportFirstFrame(thenQuit: report == "exit") }
            if let mcp = preferences?.mcp { Task { await mcp.load() } }
            if setsUpLocalModel { chatWindow.chatPage.runtimeSetup.start() }
        }
        viewModel.prepare()
        chatWindow.present()
    }

    /// Quits once Preferences has written its changes (quitting destroys no window, and
    /// Preferences writes only as it closes) and the writes still running have landed. Asked
    /// again meanwhile (a second signal), it waits as it is.
    private func quit() {
        guard !quitting else { return }
        quitting = true
        window?.closePreferences()
        window?.saveWindowState()
        let key = UnsafeMutableRawPointer(application)
        if UnfinishedWork.isRunning(in: key) { hideWindows() }
        UnfinishedWork.finish(in: key, within: .seconds(6)) { [weak self] in
            guard let self else { return }
            g_application_quit(gApplication)
        }
    }

    /// Hides every window of the app: it looks gone while it waits to end.
    private func hideWindows() {
        var node = gtk_application_get_windows(application)
        while let current = node {
            if let window = current.pointee.data { gtk_widget_set_visible(window.assumingMemoryBound(to: GtkWidget.self), 0) }
            node = current.pointee.next
        }
    }

    /// The app's stylesheet (`Resources/style.css`), over libadwaita's.
    private func loadStylesheet() {
        guard let css = ResourceLocator.file(named: "style.css"), let display = gdk_display_get_default() else { return }
        let provider = gtk_css_provider_new()
        gtk_css_provider_load_from_path(provider, css.path)
        gtk_style_context_add_provider_for_display(display, OpaquePointer(provider), guint(GTK_STYLE_PROVIDER_PRIORITY_APPLICATION))
        g_object_unref(UnsafeMutableRawPointer(provider))
    }

    /// For benchmarks: print the monotonic time of the first painted frame and the CPU time
    /// the process had used by then (and quit).
    private func reportFirstFrame(thenQuit: Bool) {
        var now = timespec(), cpu = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &cpu)
        print("first-frame \(Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec)) \(Int64(cpu.tv_sec) * 1_000_000_000 + Int64(cpu.tv_nsec))")
        fflush(nil)
        if thenQuit { g_application_quit(gApplication) }
    }
}
