import AgentCore
import CGtk
import FoundationEssentials

/// The desktop notification for a reply that finished while the user was in another
/// window (`GNotification`: the shell's own or org.freedesktop.Notifications). Clicking
/// it, or its Open, brings the window back on that reply's chat (`app.open-chat`); it goes
/// away when the window is focused again.
@MainActor
enum ReplyNotification {
    static let id = "reply-finished"

    /// `chat`: the saved chat the reply is in; nil (not saved) only brings the window back.
    static func send(for reply: ChatMessage, in chat: UUID?, from window: UnsafeMutablePointer<GtkWidget>) {
        guard let application = application(of: window) else { return }
        let title = reply.model.map { tr("Reply from %s", $0) } ?? tr("Reply finished")
        let notification = g_notification_new(title)
        // Notification servers may read the body as markup: model text is escaped.
        g_notification_set_body(notification, PangoMarkup.escape(preview(of: reply.text)))
        g_notification_set_priority(notification, G_NOTIFICATION_PRIORITY_NORMAL)
        if let chat {
            g_notification_set_default_action_and_target_value(notification, "app.open-chat", g_variant_new_string(chat.uuidString))
            g_notification_add_button_with_target_value(notification, "Open", "app.open-chat", g_variant_new_string(chat.uuidString))
        }
        g_application_send_notification(application, id, notification)
        g_object_unref(UnsafeMutableRawPointer(notification))
    }

    static func withdraw(from window: UnsafeMutablePointer<GtkWidget>) {
        guard let application = application(of: window) else { return }
        g_application_withdraw_notification(application, id)
    }

    /// The reply's start on one line, short enough for a notification bubble.
    static func preview(of text: String) -> String {
        let flat = text.split(whereSeparator: \.isNewline).joined(separator: " ").trimmed
        return flat.count > 140 ? String(flat.prefix(139)) + "…" : flat
    }

    private static func application(of window: UnsafeMutablePointer<GtkWidget>) -> UnsafeMutablePointer<GApplication>? {
        gtk_window_get_application(window.cast()).map { UnsafeMutableRawPointer($0).assumingMemoryBound(to: GApplication.self) }
    }
}
