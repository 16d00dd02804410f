/* The thin C layer under GtkFront: what Swift cannot call directly (variadic
 * functions, macros) and what differs between GTK versions. */
#ifndef AGENT_CGTK_SHIM_H
#define AGENT_CGTK_SHIM_H

#include <gtk/gtk.h>
#include <glib-unix.h>

/* libdispatch's main-queue hooks (what Foundation's run loop uses), so that a GLib
 * main loop can drain Swift's main queue and the main actor runs under GTK. */
extern int _dispatch_get_main_queue_handle_4CF(void);
extern void _dispatch_main_queue_callback_4CF(void *message);

static inline void agent_accessible_set_label(GtkWidget *widget, const char *label) {
    gtk_accessible_update_property(GTK_ACCESSIBLE(widget), GTK_ACCESSIBLE_PROPERTY_LABEL, label, -1);
}

static inline void agent_accessible_set_description(GtkWidget *widget, const char *description) {
    gtk_accessible_update_property(GTK_ACCESSIBLE(widget), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, description, -1);
}

static inline gboolean agent_gtk_has_alert_dialog(void) {
#if GTK_CHECK_VERSION(4, 10, 0)
    return TRUE;
#else
    return FALSE;
#endif
}

typedef void (*agent_alert_closed)(void *context);

typedef struct {
    agent_alert_closed closed;
    void *context;
} AgentAlertState;

#if GTK_CHECK_VERSION(4, 10, 0)
static inline void agent_alert_dialog_finished(GObject *source, GAsyncResult *result, gpointer data) {
    AgentAlertState *state = data;
    gtk_alert_dialog_choose_finish(GTK_ALERT_DIALOG(source), result, NULL);
    state->closed(state->context);
    g_free(state);
}
#else
static inline void agent_message_dialog_response(GtkDialog *dialog, int response, gpointer data) {
    (void)response;
    AgentAlertState *state = data;
    gtk_window_destroy(GTK_WINDOW(dialog));
    state->closed(state->context);
    g_free(state);
}
#endif

/* Shows a modal error alert with a heading and a message. `closed` runs once when the
 * user dismisses it. Returns the dialog window where GTK exposes one (GTK < 4.10:
 * a GtkMessageDialog), NULL otherwise (GtkAlertDialog is not a widget). */
static inline GtkWindow *agent_show_alert(GtkWindow *parent, const char *heading, const char *message,
                                          agent_alert_closed closed, void *context) {
    AgentAlertState *state = g_new0(AgentAlertState, 1);
    state->closed = closed;
    state->context = context;
#if GTK_CHECK_VERSION(4, 10, 0)
    GtkAlertDialog *dialog = gtk_alert_dialog_new("%s", heading);
    gtk_alert_dialog_set_detail(dialog, message);
    gtk_alert_dialog_set_modal(dialog, TRUE);
    gtk_alert_dialog_choose(dialog, parent, NULL, agent_alert_dialog_finished, state);
    g_object_unref(dialog);
    return NULL;
#else
    GtkWidget *dialog = gtk_message_dialog_new(parent, GTK_DIALOG_MODAL | GTK_DIALOG_DESTROY_WITH_PARENT,
                                               GTK_MESSAGE_ERROR, GTK_BUTTONS_OK, "%s", heading);
    gtk_message_dialog_format_secondary_text(GTK_MESSAGE_DIALOG(dialog), "%s", message);
    gtk_window_set_title(GTK_WINDOW(dialog), heading);
    g_signal_connect(dialog, "response", G_CALLBACK(agent_message_dialog_response), state);
    gtk_window_present(GTK_WINDOW(dialog));
    return GTK_WINDOW(dialog);
#endif
}

/* Emits a signal that takes no arguments, e.g. "clicked" or "activate" (tests and
 * programmatic activation; g_signal_emit_by_name is variadic). */
static inline void agent_emit_signal(gpointer instance, const char *signal) {
    g_signal_emit_by_name(instance, signal);
}

/* Scrolls a list view so that `position` is visible (GTK 4.8 has no gtk_list_view_scroll_to). */
static inline void agent_list_view_scroll_to(GtkWidget *list_view, guint position) {
#if GTK_CHECK_VERSION(4, 12, 0)
    gtk_list_view_scroll_to(GTK_LIST_VIEW(list_view), position, GTK_LIST_SCROLL_NONE, NULL);
#else
    gtk_widget_activate_action(list_view, "list.scroll-to-item", "u", position);
#endif
}

static inline void agent_css_provider_load(GtkCssProvider *provider, const char *css) {
#if GTK_CHECK_VERSION(4, 12, 0)
    gtk_css_provider_load_from_string(provider, css);
#else
    gtk_css_provider_load_from_data(provider, css, -1);
#endif
}

#endif
