import Glibc
import AgentCore
import CGtk
import FoundationEssentials

/// The GtkApplication: one chat window, app-wide actions with their accelerators, the
/// stylesheet, and an orderly end (the local model server stops with the app).
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
    /// Follows the desktop's dark/light preference.
    private(set) var appearance: Appearance?
    /// Benchmarks: `AGENT_REPORT_FIRST_FRAME=exit|stay` prints when the first frame is painted.
    private let firstFrameReport = ProcessInfo.processInfo.environment["AGENT_REPORT_FIRST_FRAME"]
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
        application = gtk_application_new(applicationID,
                                          unique ? G_APPLICATION_DEFAULT_FLAGS : G_APPLICATION_NON_UNIQUE)
        let app = UnsafeMutableRawPointer(application)
        Signals.connect(app, "startup") { [weak self] in self?.startup() }
        Signals.connect(app, "activate") { [weak self] in self?.activate() }
        Signals.connect(app, "shutdown") { [weak self] in
            self?.viewModel.finishSaving()
            self?.viewModel.connection.shutdown()
            self?.frameMeter?.write()
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
        if let bus = g_application_get_dbus_connection(gApplication) ?? g_bus_get_sync(G_BUS_TYPE_SESSION, nil, nil) {
            appearance = Appearance(connection: bus)
        }
        Actions.add("quit", to: UnsafeMutableRawPointer(application)) { [weak self] in
            guard let self else { return }
            window?.saveWindowState()
            g_application_quit(gApplication)
        }
        Actions.setAccelerators(["<Control>q"], for: "app.quit", in: application)
        Actions.setAccelerators(["<Control>w"], for: "window.close", in: application)
        Actions.setAccelerators(["<Control>n"], for: "win.new-chat", in: application)
        Actions.setAccelerators(["<Control>f"], for: "win.search", in: application)
        Actions.setAccelerators(["F2"], for: "win.rename-chat", in: application)
        Actions.setAccelerators(["<Control><Shift>r"], for: "win.regenerate", in: application)
        Actions.setAccelerators(["<Control><Shift>c"], for: "win.copy-chat", in: application)
        Actions.setAccelerators(["<Control>comma"], for: "win.preferences", in: application)
        Actions.setAccelerators(["<Control>question"], for: "win.show-help-overlay", in: application)
    }

    private func activate() {
        if window == nil {
            let chatWindow = ChatWindow(application: application, viewModel: viewModel, library: library, preferences: preferences)
            window = chatWindow
            // Ctrl+W or the close button destroys it; a later activation builds a new one.
            Signals.connect(chatWindow.window.raw, "destroy") { [weak self] in self?.window = nil }
            frameMeter = FrameMeter()
            frameMeter?.watch(chatWindow.window)
            library?.openInitialChat()
            FirstFrame.after(chatWindow.window) { [weak self] in
                if let self, let report = firstFrameReport { reportFirstFrame(thenQuit: report == "exit") }
            }
            viewModel.prepare()
            window?.present()
            if let storeProblem {
                ErrorAlert.show(over: chatWindow.window, message: storeProblem) {}
            }
            return
        }
        window?.present()
    }


    private func loadStylesheet() {
        guard let css = ResourceLocator.file(named: "style.css"), let display = gdk_display_get_default() else { return }
        let provider = gtk_css_provider_new()
        gtk_css_provider_load_from_path(provider, css.path)
        gtk_style_context_add_provider_for_display(display, OpaquePointer(provider), guint(GTK_STYLE_PROVIDER_PRIORITY_APPLICATION))
        g_object_unref(UnsafeMutableRawPointer(provider))
    }

    /// For benchmarks: print the monotonic time of the first painted frame (and quit).
    private func reportFirstFrame(thenQuit: Bool) {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        print("first-frame \(Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec))")
        fflush(nil)
        if thenQuit { g_application_quit(gApplication) }
    }
}
