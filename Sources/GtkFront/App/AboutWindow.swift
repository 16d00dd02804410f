import Glibc
import AgentCore
import CGtk
import FoundationEssentials

/// Help › About Agent: libadwaita's `AdwAboutWindow` with the version, licence and website,
/// and the debug information a bug report needs (its Copy button copies it): the toolkit's
/// versions, where chats go, the local runtime's llama-server and models.
@MainActor
enum AboutWindow {
    static let website = "https://github.com/agentdesktop/agent"

    static func show(over parent: UnsafeMutablePointer<GtkWidget>, connection: ChatConnection) -> UnsafeMutablePointer<GtkWidget> {
        let window: UnsafeMutablePointer<GtkWidget> = adw_about_window_new()
        let about = OpaquePointer(window)
        adw_about_window_set_application_name(about, AppIdentity.name)
        adw_about_window_set_application_icon(about, AppIdentity.applicationID)
        adw_about_window_set_version(about, AppIdentity.version)
        adw_about_window_set_developer_name(about, tr("The Agent developers"))
        adw_about_window_set_license_type(about, GTK_LICENSE_MIT_X11)
        adw_about_window_set_website(about, website)
        adw_about_window_set_issue_url(about, website + "/issues")
        adw_about_window_set_comments(about, tr("Chat with large language models on your computer or any server"))
        adw_about_window_set_debug_info_filename(about, "agent-debug-info.txt")
        let known = debugInfo(connection: connection, runtime: nil)
        adw_about_window_set_debug_info(about, known)
        SecondaryWindow.place(window, over: parent)
        gtk_window_present(window.cast())
        // Asking llama-server its version takes a process start: the text gains it when it comes,
        // if the window is still there (it holds no reference: a window outliving its destroy
        // would be disposed after its parent is freed).
        final class Open { var isOpen = true }
        let open = Open()
        Signals.connect(window.raw, "destroy") { open.isOpen = false }
        Task {
            guard let runtime = try? LocalRuntime.locate(), let version = await runtime.serverVersion(), open.isOpen else { return }
            adw_about_window_set_debug_info(about, debugInfo(connection: connection, runtime: (runtime, version)))
        }
        return window
    }

    /// The debug information, as plain text.
    static func debugInfo(connection: ChatConnection, runtime: (LocalRuntime, version: String)?) -> String {
        var lines = ["\(AppIdentity.name) \(AppIdentity.version)"]
        if let versions = agent_toolkit_versions() {
            lines.append(String(cString: versions))
            g_free(versions)
        }
        lines.append("")
        lines.append("Chats go to: \(connection.modelName) · \(connection.locationDescription)")
        if let runtime {
            lines.append("Local runtime: \(runtime.0.directory.path)")
            lines.append("llama-server: \(runtime.0.serverExecutable.path) (\(runtime.version))")
            for model in LocalModel.all {
                lines.append("\(model.displayName): " + ((try? runtime.0.modelFile(for: model).path) ?? "not installed"))
            }
        } else {
            lines.append("Local runtime: " + ((try? LocalRuntime.locate().directory.path) ?? "not installed"))
        }
        lines.append("")
        lines.append("OS: \(osName)")
        let environment = ProcessInfo.processInfo.environment
        for name in ["XDG_CURRENT_DESKTOP", "XDG_SESSION_TYPE", "GDK_BACKEND", "GSK_RENDERER", "LANG"] {
            if let value = environment[name] { lines.append("\(name)=\(value)") }
        }
        return lines.joined(separator: "\n")
    }

    private static var osName: String {
        guard let data = try? Data(contentsOf: URL(filePath: "/etc/os-release")) else { return "unknown" }
        let line = String(decoding: data, as: UTF8.self).split(separator: "\n").first { $0.hasPrefix("PRETTY_NAME=") }
        return line.map { $0.dropFirst("PRETTY_NAME=".count).trimmingQuotes } ?? "unknown"
    }
}

private extension Substring {
    var trimmingQuotes: String {
        String(drop { $0 == "\"" }.reversed().drop { $0 == "\"" }.reversed())
    }
}
