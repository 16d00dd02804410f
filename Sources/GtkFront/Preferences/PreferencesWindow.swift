import AgentCore
import CGtk

/// The Preferences window (Ctrl+,): servers, generation, tools and the local model, one
/// page each beside a sidebar. Every change is saved at once; the chat switches to the
/// new settings when the window closes, so typing a URL does not restart anything.
@MainActor
final class PreferencesWindow {
    let window: UnsafeMutablePointer<GtkWidget>
    let servers: ServerPage
    let generation: GenerationPage
    let tools: ToolsPage
    let localModel: LocalModelPage
    private var changed = false

    /// `closed(changed)` runs when the window is closed (and destroyed); `changed` says whether any setting did.
    init(parent: UnsafeMutablePointer<GtkWidget>, settings: SettingsStore, secrets: SecretStore,
         closed: @escaping @MainActor (Bool) -> Void) {
        window = gtk_window_new()
        gtk_window_set_title(window.cast(), "Preferences")
        gtk_window_set_transient_for(window.cast(), parent.cast())
        gtk_window_set_modal(window.cast(), 1)
        gtk_window_set_default_size(window.cast(), 820, 660)
        gtk_window_set_destroy_with_parent(window.cast(), 1)

        servers = ServerPage(settings: settings, secrets: secrets, window: window)
        generation = GenerationPage(settings: settings)
        tools = ToolsPage(settings: settings)
        localModel = LocalModelPage(settings: settings)

        let stack: UnsafeMutablePointer<GtkWidget> = gtk_stack_new()
        gtk_stack_set_transition_type(stack.opaque, GTK_STACK_TRANSITION_TYPE_CROSSFADE)
        for (name, title, page) in [("servers", "Servers", servers.widget), ("generation", "Generation", generation.widget),
                                    ("tools", "Tools", tools.widget), ("local-model", "Local Model", localModel.widget)] {
            let scroller: UnsafeMutablePointer<GtkWidget> = gtk_scrolled_window_new()
            gtk_scrolled_window_set_policy(scroller.opaque, GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC)
            gtk_scrolled_window_set_child(scroller.opaque, page)
            gtk_stack_add_titled(stack.opaque, scroller, name, title)
        }
        let sidebar: UnsafeMutablePointer<GtkWidget> = gtk_stack_sidebar_new()
        gtk_stack_sidebar_set_stack(sidebar.opaque, stack.opaque)
        gtk_widget_set_size_request(sidebar, 160, -1)
        agent_accessible_set_label(sidebar, "Preference pages")
        let box: UnsafeMutablePointer<GtkWidget> = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 0)
        gtk_box_append(box.cast(), sidebar)
        gtk_box_append(box.cast(), gtk_separator_new(GTK_ORIENTATION_VERTICAL))
        gtk_widget_set_hexpand(stack, 1)
        gtk_box_append(box.cast(), stack)
        gtk_window_set_child(window.cast(), box)

        let header: UnsafeMutablePointer<GtkWidget> = gtk_header_bar_new()
        gtk_window_set_titlebar(window.cast(), header)
        stackWidget = stack

        let markChanged: () -> Void = { [weak self] in self?.changed = true }
        servers.onChange = markChanged
        generation.onChange = markChanged
        tools.onChange = markChanged
        localModel.onChange = markChanged

        let escape = gtk_shortcut_controller_new()
        gtk_shortcut_controller_add_shortcut(escape, gtk_shortcut_new(gtk_shortcut_trigger_parse_string("Escape"),
                                                                                      gtk_named_action_new("window.close")))
        gtk_widget_add_controller(window, escape)
        // gtk_window_destroy unrealizes the window before it disposes of the children.
        Signals.connect(window.raw, "unrealize") { [weak self] in self?.servers.windowClosing() }
        Signals.connect(window.raw, "destroy") { [weak self] in
            closed(self?.changed ?? false)
        }
    }

    private let stackWidget: UnsafeMutablePointer<GtkWidget>

    /// Shows the page named `name` ("servers", "generation", "tools", "local-model").
    func show(page name: String) {
        gtk_stack_set_visible_child_name(stackWidget.opaque, name)
    }

    func present() {
        gtk_window_present(window.cast())
    }

    func close() {
        gtk_window_close(window.cast())
    }
}
