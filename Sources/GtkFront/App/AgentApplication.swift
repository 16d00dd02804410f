import Glibc
import AgentCore
import CGtk
import FoundationEssentials

/// The `AdwApplication`: one chat window, the accelerators (`Shortcuts`), the stylesheet,
/// light and dark from the desktop (libadwaita's style manager follows the settings portal
/// by itself), and an orderly end: saves land, settings are written, the local model server
/// stops with the app.
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
    public private(set) var window: ChatWindow?
    /// Benchmarks: `AGENT_REPORT_FIRST_FRAME=exit|stay` prints when the first frame is painted.
    private let firstFrameReport = ProcessInfo.processInfo.environment["AGENT_REPORT_FIRST_FRAME"]
    /// Starts setting up the local model without a click when it is missing (`agent
    /// --set-up-local-model`, as scripts/run starts it); otherwise it is only offered.
    public var setsUpLocalModel = false
    /// Benchmarks: `AGENT_REPORT_FRAMES=FILE` measures the work in each frame.
    private var frameMeter: FrameMeter?

    /// `unique`: a second launch presents the first window instead of opening another.
    /// `applicationID` differs from the app's own only in tests that run several at once.
    public init(viewModel: ChatViewModel, library: ChatLibrary? = nil, preferences: AppPreferences? = nil,
                storeProblem: String? = nil, unique: Bool = true, applicationID: String = AppIdentity.applicationID) {
        self.viewModel = viewModel
        self.library = library
        self.preferences = preferences
        self.storeProblem = storeProblem
        let adwApplication = adw_application_new(applicationID, unique ? G_APPLICATION_DEFAULT_FLAGS : G_APPLICATION_NON_UNIQUE)
        application = UnsafeMutableRawPointer(adwApplication!).assumingMemoryBound(to: GtkApplication.self)
        let app = UnsafeMutableRawPointer(application)
        Signals.connect(app, "startup") { [weak self] in self?.startup() }
        Signals.connect(app, "activate") { [weak self] in self?.activate() }
        Signals.connect(app, "shutdown") { [weak self] in
            self?.viewModel.finishSaving()
            self?.viewModel.connection.shutdown()
            self?.preferences?.mcp?.stopAllBlocking()
            self?.frameMeter?.write()
            SettingsStore.sync()
        }
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
        let status = g_application_run(gApplication, 0, nil)
        g_object_unref(UnsafeMutableRawPointer(application))
        return status
    }

    private func startup() {
        loadStylesheet()
        Actions.add("quit", to: UnsafeMutableRawPointer(application)) { [weak self] in
            guard let self else { return }
            window?.saveWindowState()
            g_application_quit(gApplication)
        }
        Shortcuts.install(in: application)
    }

    private func activate() {
        if let window {
            window.present()
            return
        }
        let chatWindow = ChatWindow(application: application, viewModel: viewModel, library: library, preferences: preferences)
        window = chatWindow
        // Ctrl+W or the close button destroys it; a later activation builds a new one.
        Signals.connect(chatWindow.window.raw, "destroy") { [weak self] in self?.window = nil }
        frameMeter = FrameMeter()
        frameMeter?.watch(chatWindow.window)
        library?.openInitialChat()
        chatWindow.chatPage.lastingProblem = storeProblem
        FirstFrame.after(chatWindow.window) { [weak self] in
            guard let self else { return }
            if let report = firstFrameReport { reportFirstFrame(thenQuit: report == "exit") }
            if let mcp = preferences?.mcp { Task { await mcp.load() } }
            if setsUpLocalModel { chatWindow.chatPage.runtimeSetup.start() }
        }
        viewModel.prepare()
        chatWindow.present()
    }

    /// The stylesheet, and the app's icons when it runs from the build tree.
    private func loadStylesheet() {
        if let icons = ResourceLocator.sourceTreeIcons, let display = gdk_display_get_default() {
            gtk_icon_theme_add_search_path(gtk_icon_theme_get_for_display(display), icons.path)
        }
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
