/* The thin C layer under GtkFront, over GTK 4 and libadwaita: what Swift cannot call
 * directly (variadic functions, macros) and what differs between GTK versions. */
#ifndef AGENT_CGTK_SHIM_H
#define AGENT_CGTK_SHIM_H

#include <gtk/gtk.h>
#include <adwaita.h>
#include <glib-unix.h>
#ifdef GDK_WINDOWING_X11
#include <gdk/x11/gdkx.h>
#endif

/* The X11 window id of a realized toplevel (0 elsewhere): tests drive it with xdotool. */
static inline unsigned long agent_window_xid(GtkWidget *window) {
#ifdef GDK_WINDOWING_X11
    GdkSurface *surface = gtk_native_get_surface(GTK_NATIVE(window));
    if (surface && GDK_IS_X11_SURFACE(surface)) return gdk_x11_surface_get_xid(surface);
#endif
    (void)window;
    return 0;
}

/* libdispatch's main-queue hooks (what Foundation's run loop uses), so that a GLib
 * main loop can drain Swift's main queue and the main actor runs under GTK. */
extern int _dispatch_get_main_queue_handle_4CF(void);
extern void _dispatch_main_queue_callback_4CF(void *message);

/* The name a screen reader gives `widget` (gtk_accessible_update_property is variadic). */
/* g_application_command_line_printerr is variadic: the text goes through "%s". */
static inline void agent_command_line_printerr(GApplicationCommandLine *command_line, const char *text) {
    g_application_command_line_printerr(command_line, "%s", text);
}

static inline void agent_accessible_set_label(GtkWidget *widget, const char *label) {
    gtk_accessible_update_property(GTK_ACCESSIBLE(widget), GTK_ACCESSIBLE_PROPERTY_LABEL, label, -1);
}

/* What a screen reader says about `widget` after its name. */
static inline void agent_accessible_set_description(GtkWidget *widget, const char *description) {
    gtk_accessible_update_property(GTK_ACCESSIBLE(widget), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, description, -1);
}

/* Hides `widget` if it is shown but in no window yet (GTK then skips the pointer query that a
 * tooltip set on it would cost, below); whether it did, so the caller shows it again. */
static inline gboolean agent_hide_while_in_no_window(GtkWidget *widget) {
    gboolean quiet = gtk_widget_get_root(widget) == NULL && gtk_widget_get_visible(widget);
    if (quiet) gtk_widget_set_visible(widget, FALSE);
    return quiet;
}

/* Sets a widget's tooltip as gtk_widget_set_tooltip_text does, without the pointer query
 * that follows it for a visible widget: GTK asks the display where the pointer is to refresh
 * a tooltip shown now — on X11 a round trip to the server, about 0.2 ms, paid for every
 * button of every transcript row built. A widget not yet in a window shows no tooltip, so it
 * is hidden while the tooltip is set and shown again (not for a page of a stack, which would
 * show another page meanwhile). The same text again changes nothing. */
static inline void agent_widget_set_tooltip_text(GtkWidget *widget, const char *text) {
    if (g_strcmp0(gtk_widget_get_tooltip_text(widget), text && *text ? text : NULL) == 0) return;
    gboolean quiet = agent_hide_while_in_no_window(widget);
    gtk_widget_set_tooltip_text(widget, text);
    if (quiet) gtk_widget_set_visible(widget, TRUE);
}

/* adw_split_button_set_dropdown_tooltip without GTK's pointer query, as above: libadwaita
 * gives the tooltip to the split button's arrow, its last child, which is hidden for the call
 * while the button is in no window. */
static inline void agent_split_button_set_dropdown_tooltip(GtkWidget *split_button, const char *tooltip) {
    GtkWidget *arrow = gtk_widget_get_last_child(split_button);
    gboolean quiet = arrow != NULL && agent_hide_while_in_no_window(arrow);
    adw_split_button_set_dropdown_tooltip(ADW_SPLIT_BUTTON(split_button), tooltip);
    if (quiet) gtk_widget_set_visible(arrow, TRUE);
}

/* Swift code sets tooltips with the two functions above: the compiler refuses GTK's and
 * libadwaita's own there (C here still calls them). */
void gtk_widget_set_tooltip_text(GtkWidget *widget, const char *text)
    __attribute__((availability(swift, unavailable, message="use agent_widget_set_tooltip_text: it skips GTK's pointer query")));
void gtk_widget_set_tooltip_markup(GtkWidget *widget, const char *markup)
    __attribute__((availability(swift, unavailable, message="use agent_widget_set_tooltip_text (no markup): it skips GTK's pointer query")));
void adw_split_button_set_dropdown_tooltip(AdwSplitButton *self, const char *tooltip)
    __attribute__((availability(swift, unavailable, message="use agent_split_button_set_dropdown_tooltip: it skips GTK's pointer query")));

/* A label with the status role (a status bar to AT-SPI): its accessible name follows its
 * text, each change an event screen readers hear. The role is given only at construction, and
 * g_object_new is variadic. */
static inline GtkWidget *agent_status_label_new(void) {
    return GTK_WIDGET(g_object_new(GTK_TYPE_LABEL, "accessible-role", GTK_ACCESSIBLE_ROLE_STATUS, NULL));
}

/* Scrolls a list view so that `position` is visible (GTK 4.8 has no gtk_list_view_scroll_to). */
static inline void agent_list_view_scroll_to(GtkWidget *list_view, guint position) {
#if GTK_CHECK_VERSION(4, 12, 0)
    gtk_list_view_scroll_to(GTK_LIST_VIEW(list_view), position, GTK_LIST_SCROLL_NONE, NULL);
#else
    gtk_widget_activate_action(list_view, "list.scroll-to-item", "u", position);
#endif
}

/* The versions the About window's debug information reports. */
static inline char *agent_toolkit_versions(void) {
    return g_strdup_printf("GTK %u.%u.%u (built against %d.%d.%d)\nlibadwaita %u.%u.%u (built against %s)\nGLib %u.%u.%u",
                           gtk_get_major_version(), gtk_get_minor_version(), gtk_get_micro_version(),
                           GTK_MAJOR_VERSION, GTK_MINOR_VERSION, GTK_MICRO_VERSION,
                           adw_get_major_version(), adw_get_minor_version(), adw_get_micro_version(), ADW_VERSION_S,
                           glib_major_version, glib_minor_version, glib_micro_version);
}

typedef void (*agent_file_chosen)(const char *path, void *context);

typedef struct {
    agent_file_chosen chosen;
    void *context;
} AgentFileState;

/* What agent_choose_file asks for. */
enum { AGENT_CHOOSE_OPEN = 0, AGENT_CHOOSE_SAVE = 1, AGENT_CHOOSE_FOLDER = 2 };

#if GTK_CHECK_VERSION(4, 10, 0)
static inline void agent_file_dialog_finished(GObject *source, GAsyncResult *result, gpointer data) {
    AgentFileState *state = data;
    int mode = GPOINTER_TO_INT(g_object_get_data(source, "agent-mode"));
    GFile *file = mode == AGENT_CHOOSE_SAVE ? gtk_file_dialog_save_finish(GTK_FILE_DIALOG(source), result, NULL)
        : mode == AGENT_CHOOSE_FOLDER ? gtk_file_dialog_select_folder_finish(GTK_FILE_DIALOG(source), result, NULL)
        : gtk_file_dialog_open_finish(GTK_FILE_DIALOG(source), result, NULL);
    char *path = file ? g_file_get_path(file) : NULL;
    state->chosen(path, state->context);
    g_free(path);
    if (file) g_object_unref(file);
    g_free(state);
}
#else
static inline void agent_file_chooser_response(GtkNativeDialog *dialog, int response, gpointer data) {
    AgentFileState *state = data;
    char *path = NULL;
    if (response == GTK_RESPONSE_ACCEPT) {
        GFile *file = gtk_file_chooser_get_file(GTK_FILE_CHOOSER(dialog));
        if (file) {
            path = g_file_get_path(file);
            g_object_unref(file);
        }
    }
    state->chosen(path, state->context);
    g_free(path);
    g_free(state);
    g_object_unref(dialog);
}
#endif

/* A filter showing files whose names end in `suffix` (any case), named `name`; NULL without
 * a suffix. */
static inline GtkFileFilter *agent_suffix_filter(const char *name, const char *suffix) {
    if (suffix == NULL) return NULL;
    GtkFileFilter *filter = gtk_file_filter_new();
    gtk_file_filter_set_name(filter, name);
    gtk_file_filter_add_suffix(filter, suffix);
    return filter;
}

/* Asks for a file to open, a file to save to (with `suggested_name`), or a folder, by `mode`;
 * with `suffix`, the files offered are those ending in it (a filter named `filter_name`).
 * `chosen` runs once with the path, or NULL when the user cancelled. GtkFileDialog on GTK
 * 4.10+, GtkFileChooserNative (a portal where there is one) on 4.8. */
static inline void agent_choose_filtered_file(GtkWindow *parent, const char *title, int mode, const char *suggested_name,
                                              const char *filter_name, const char *suffix,
                                              agent_file_chosen chosen, void *context) {
    gboolean save = mode == AGENT_CHOOSE_SAVE;
    AgentFileState *state = g_new0(AgentFileState, 1);
    state->chosen = chosen;
    state->context = context;
    GtkFileFilter *filter = agent_suffix_filter(filter_name, suffix);
#if GTK_CHECK_VERSION(4, 10, 0)
    GtkFileDialog *dialog = gtk_file_dialog_new();
    g_object_set_data(G_OBJECT(dialog), "agent-mode", GINT_TO_POINTER(mode));
    gtk_file_dialog_set_title(dialog, title);
    gtk_file_dialog_set_modal(dialog, TRUE);
    if (filter != NULL) {
        gtk_file_dialog_set_default_filter(dialog, filter);
        g_object_unref(filter);
    }
    if (save) {
        if (suggested_name) gtk_file_dialog_set_initial_name(dialog, suggested_name);
        gtk_file_dialog_save(dialog, parent, NULL, agent_file_dialog_finished, state);
    } else if (mode == AGENT_CHOOSE_FOLDER) {
        gtk_file_dialog_select_folder(dialog, parent, NULL, agent_file_dialog_finished, state);
    } else {
        gtk_file_dialog_open(dialog, parent, NULL, agent_file_dialog_finished, state);
    }
    g_object_unref(dialog);
#else
    GtkFileChooserNative *dialog = gtk_file_chooser_native_new(
        title, parent, save ? GTK_FILE_CHOOSER_ACTION_SAVE
            : mode == AGENT_CHOOSE_FOLDER ? GTK_FILE_CHOOSER_ACTION_SELECT_FOLDER : GTK_FILE_CHOOSER_ACTION_OPEN,
        save ? "_Save" : mode == AGENT_CHOOSE_FOLDER ? "_Select" : "_Open", "_Cancel");
    gtk_native_dialog_set_modal(GTK_NATIVE_DIALOG(dialog), TRUE);
    if (save && suggested_name) gtk_file_chooser_set_current_name(GTK_FILE_CHOOSER(dialog), suggested_name);
    if (filter != NULL) {
        gtk_file_chooser_add_filter(GTK_FILE_CHOOSER(dialog), filter);
        g_object_unref(filter);
    }
    g_signal_connect(dialog, "response", G_CALLBACK(agent_file_chooser_response), state);
    gtk_native_dialog_show(GTK_NATIVE_DIALOG(dialog));
#endif
}

/* `agent_choose_filtered_file` offering every file. */
static inline void agent_choose_file(GtkWindow *parent, const char *title, int mode, const char *suggested_name,
                                     agent_file_chosen chosen, void *context) {
    agent_choose_filtered_file(parent, title, mode, suggested_name, NULL, NULL, chosen, context);
}

/* Two boxes for one child below lay it out themselves (GtkCustomLayout, whose callbacks
 * take no user data, hence the object data). Both trade height for width. */
static inline GtkSizeRequestMode agent_height_for_width_mode(GtkWidget *widget) {
    (void)widget;
    return GTK_SIZE_REQUEST_HEIGHT_FOR_WIDTH;
}

/* The width the aligned box gives `child` out of `available` (-1: unlimited): its natural
 * width, or all there is when less. */
static inline int agent_aligned_child_width(GtkWidget *child, int available) {
    int natural = 0;
    gtk_widget_measure(child, GTK_ORIENTATION_HORIZONTAL, -1, NULL, &natural, NULL, NULL);
    return available < 0 ? natural : MIN(natural, available);
}

/* The largest minimum and natural size among `widget`'s children. `narrowed`: a height is
 * asked for the width the child will be given (`agent_aligned_child_width`), not the box's. */
static inline void agent_children_measure(GtkWidget *widget, GtkOrientation orientation, int for_size, gboolean narrowed,
                                          int *minimum, int *natural, int *minimum_baseline, int *natural_baseline) {
    int min = 0, nat = 0;
    for (GtkWidget *child = gtk_widget_get_first_child(widget); child != NULL; child = gtk_widget_get_next_sibling(child)) {
        if (!gtk_widget_should_layout(child)) continue;
        int size = narrowed && orientation == GTK_ORIENTATION_VERTICAL && for_size >= 0
            ? agent_aligned_child_width(child, for_size) : for_size;
        int child_min = 0, child_nat = 0;
        gtk_widget_measure(child, orientation, size, &child_min, &child_nat, NULL, NULL);
        min = MAX(min, child_min);
        nat = MAX(nat, child_nat);
    }
    *minimum = min;
    *natural = MAX(min, nat);
    if (minimum_baseline != NULL) *minimum_baseline = -1;
    if (natural_baseline != NULL) *natural_baseline = -1;
}

/* A box for one child, as wide as a label with max-width-chars `chars` would be: its
 * natural width is at least that many average characters of its font (none when `chars` is
 * 0), its minimum stays the child's, so a wrapping text view in it reads like the labels
 * around it and still shrinks with the window (a text view has no width in characters).
 * Given its child's text (`agent_reading_width_box_set_line`), it is as wide as that text;
 * keeping its widest (`agent_reading_width_box_keep_widest`), never narrower than it was. */
static inline void agent_reading_width_measure(GtkWidget *widget, GtkOrientation orientation, int for_size,
                                               int *minimum, int *natural, int *minimum_baseline,
                                               int *natural_baseline) {
    agent_children_measure(widget, orientation, for_size, FALSE, minimum, natural, minimum_baseline, natural_baseline);
    int chars = GPOINTER_TO_INT(g_object_get_data(G_OBJECT(widget), "agent-reading-chars"));
    if (orientation == GTK_ORIENTATION_HORIZONTAL && chars > 0) {
        PangoFontMetrics *metrics = pango_context_get_metrics(gtk_widget_get_pango_context(widget), NULL, NULL);
        int char_width = MAX(pango_font_metrics_get_approximate_char_width(metrics),
                             pango_font_metrics_get_approximate_digit_width(metrics));
        pango_font_metrics_unref(metrics);
        int reading = MAX(*natural, PANGO_PIXELS(char_width * chars));
        /* One short line of text is as wide as it is, measured as its child lays it out: a
         * wrapping text view's own natural width is its margins, and it gives its text one
         * pixel less than its width (room for the cursor). */
        const char *text = g_object_get_data(G_OBJECT(widget), "agent-reading-text");
        GtkWidget *child = gtk_widget_get_first_child(widget);
        if (text != NULL && child != NULL) {
            PangoLayout *layout = gtk_widget_create_pango_layout(child, text);
            int width = 0;
            pango_layout_get_size(layout, &width, NULL);
            g_object_unref(layout);
            *natural = MIN(*natural + PANGO_PIXELS_CEIL(width) + 1, reading);
            g_object_set_data(G_OBJECT(widget), "agent-reading-measured", GINT_TO_POINTER(1));
        } else {
            *natural = reading;
        }
    }
    if (orientation == GTK_ORIENTATION_HORIZONTAL && g_object_get_data(G_OBJECT(widget), "agent-reading-keeps-widest") != NULL) {
        *natural = MAX(*natural, GPOINTER_TO_INT(g_object_get_data(G_OBJECT(widget), "agent-reading-widest")));
        g_object_set_data(G_OBJECT(widget), "agent-reading-widest", GINT_TO_POINTER(*natural));
    }
}

/* Gives each of `widget`'s children all of the box. */
static inline void agent_fill_allocate(GtkWidget *widget, int width, int height, int baseline) {
    for (GtkWidget *child = gtk_widget_get_first_child(widget); child != NULL; child = gtk_widget_get_next_sibling(child)) {
        if (gtk_widget_should_layout(child)) gtk_widget_allocate(child, width, height, baseline, NULL);
    }
}

static inline GtkWidget *agent_reading_width_box_new(GtkWidget *child, int chars) {
    GtkWidget *box = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0);
    g_object_set_data(G_OBJECT(box), "agent-reading-chars", GINT_TO_POINTER(chars));
    gtk_widget_set_layout_manager(box, gtk_custom_layout_new(agent_height_for_width_mode,
                                                             agent_reading_width_measure,
                                                             agent_fill_allocate));
    gtk_box_append(GTK_BOX(box), child);
    return box;
}

/* Gives the reading-width box the short lines its child last added, to be as wide as the
 * widest (measured when GTK measures, in the style of that moment); NULL: as wide as its
 * reading width. */
static inline void agent_reading_width_box_set_line(GtkWidget *box, const char *line) {
    const char *old = g_object_get_data(G_OBJECT(box), "agent-reading-text");
    if (old == line || (old != NULL && line != NULL && strcmp(old, line) == 0)) return;
    g_object_set_data_full(G_OBJECT(box), "agent-reading-text", line != NULL ? g_strdup(line) : NULL, g_free);
    g_object_set_data(G_OBJECT(box), "agent-reading-measured", NULL);
    gtk_widget_queue_resize(box);
}

/* Whether GTK has measured the reading-width box's width with the line it was last given
 * (never, for no line): until then, lines given later must be measured with that one. */
static inline gboolean agent_reading_width_box_was_measured(GtkWidget *box) {
    return g_object_get_data(G_OBJECT(box), "agent-reading-measured") != NULL;
}

/* While `keeps`, the reading-width box is never narrower than the widest it has measured
 * since (set again: from now on): text that only grows widens it line by line, and what is
 * laid out beside it is not wrapped again each time a shorter line begins. */
static inline void agent_reading_width_box_keep_widest(GtkWidget *box, gboolean keeps) {
    g_object_set_data(G_OBJECT(box), "agent-reading-keeps-widest", GINT_TO_POINTER(keeps));
    g_object_set_data(G_OBJECT(box), "agent-reading-widest", NULL);
    gtk_widget_queue_resize(box);
}

/* A box that puts its child at its start or end (its end: "agent-align-end" set; both
 * follow the text direction), as wide as the child's natural width or the box, whichever
 * is narrower. GTK's own alignment (halign START/END) measures a height-for-width child's
 * width for its allocated height at every allocation — for a bubble of wrapping labels, a
 * binary search of Pango layouts per label — where this asks only for the natural width,
 * which GTK caches. */
static inline void agent_aligned_measure(GtkWidget *widget, GtkOrientation orientation, int for_size,
                                         int *minimum, int *natural, int *minimum_baseline, int *natural_baseline) {
    agent_children_measure(widget, orientation, for_size, TRUE, minimum, natural, minimum_baseline, natural_baseline);
}

static inline void agent_aligned_allocate(GtkWidget *widget, int width, int height, int baseline) {
    gboolean end = GPOINTER_TO_INT(g_object_get_data(G_OBJECT(widget), "agent-align-end"));
    if (gtk_widget_get_direction(widget) == GTK_TEXT_DIR_RTL) end = !end;
    for (GtkWidget *child = gtk_widget_get_first_child(widget); child != NULL; child = gtk_widget_get_next_sibling(child)) {
        if (!gtk_widget_should_layout(child)) continue;
        int child_width = agent_aligned_child_width(child, width);
        graphene_point_t offset = GRAPHENE_POINT_INIT(end ? (float)(width - child_width) : 0.f, 0.f);
        gtk_widget_allocate(child, child_width, height, baseline, gsk_transform_translate(NULL, &offset));
    }
}

static inline GtkWidget *agent_aligned_box_new(GtkWidget *child) {
    GtkWidget *box = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0);
    gtk_widget_set_layout_manager(box, gtk_custom_layout_new(agent_height_for_width_mode, agent_aligned_measure,
                                                             agent_aligned_allocate));
    gtk_box_append(GTK_BOX(box), child);
    return box;
}

static inline void agent_aligned_box_set_end(GtkWidget *box, gboolean end) {
    g_object_set_data(G_OBJECT(box), "agent-align-end", GINT_TO_POINTER(end ? 1 : 0));
    gtk_widget_queue_allocate(box);
}

/* The size of all of `view`'s text as GtkTextView lays it out, with its margins, CSS padding
 * and border: the height as GtkTextView sums it (each line's logical height in whole pixels,
 * in the view's font: tags' fonts, line-height and pixels above or below lines are not
 * counted, and code views set none that change it), the width of its longest line. For a view
 * whose text is set once: kept on the view until its font changes (a Pango context's serial
 * is never 0). */
typedef struct {
    guint serial;
    int width;
    int height;
} AgentTextSize;

static inline AgentTextSize agent_text_view_full_size(GtkTextView *view) {
    PangoContext *context = gtk_widget_get_pango_context(GTK_WIDGET(view));
    guint serial = pango_context_get_serial(context);
    AgentTextSize *kept = g_object_get_data(G_OBJECT(view), "agent-full-size");
    if (kept != NULL && kept->serial == serial) return *kept;
    GtkTextIter start, end;
    gtk_text_buffer_get_bounds(gtk_text_view_get_buffer(view), &start, &end);
    char *text = gtk_text_iter_get_text(&start, &end);
    PangoLayout *layout = pango_layout_new(context);
    pango_layout_set_text(layout, text, -1);
    g_free(text);
    G_GNUC_BEGIN_IGNORE_DEPRECATIONS
    GtkStyleContext *style = gtk_widget_get_style_context(GTK_WIDGET(view));
    GtkBorder padding, border;
    gtk_style_context_get_padding(style, &padding);
    gtk_style_context_get_border(style, &border);
    G_GNUC_END_IGNORE_DEPRECATIONS
    AgentTextSize size = { serial, 0, 0 };
    pango_layout_get_pixel_size(layout, &size.width, NULL);
    size.width += gtk_text_view_get_left_margin(view) + gtk_text_view_get_right_margin(view)
        + padding.left + padding.right + border.left + border.right;
    size.height = gtk_text_view_get_top_margin(view) + gtk_text_view_get_bottom_margin(view)
        + padding.top + padding.bottom + border.top + border.bottom;
    PangoLayoutIter *line = pango_layout_get_iter(layout);
    do {
        PangoRectangle logical;
        pango_layout_iter_get_line_extents(line, NULL, &logical);
        size.height += PANGO_PIXELS(logical.height);
    } while (pango_layout_iter_next_line(line));
    pango_layout_iter_free(line);
    g_object_unref(layout);
    g_object_set_data_full(G_OBJECT(view), "agent-full-size", g_memdup2(&size, sizeof size), g_free);
    return size;
}

/* A box for a scrolled window holding a text view that is not to scroll vertically
 * ("agent-text-view"), sized by all the view's text from the first frame:
 * - as tall as all of it. GtkTextView measures its lines in idle time and grows over the
 *   frames after it is shown, so a list row holding one would change height while on screen
 *   (and GtkListView, keeping its anchor row in place, moves the rows above it: the view jumps);
 * - as wide by nature as its longest line, up to the scrolled window's max-content-width.
 *   GtkTextView's natural width is its margins alone: in a box as wide as its other content
 *   (a reply's bubble), code was squeezed to the width of the paragraph above it.
 * Its minimum width stays the scrolled window's: on a narrow window the code scrolls sideways. */
static inline void agent_full_text_measure(GtkWidget *widget, GtkOrientation orientation, int for_size,
                                           int *minimum, int *natural, int *minimum_baseline, int *natural_baseline) {
    agent_children_measure(widget, orientation, for_size, FALSE, minimum, natural, minimum_baseline, natural_baseline);
    GtkWidget *view = g_object_get_data(G_OBJECT(widget), "agent-text-view");
    AgentTextSize full = agent_text_view_full_size(GTK_TEXT_VIEW(view));
    int shown_min = 0, shown_nat = 0;
    gtk_widget_measure(view, orientation, -1, &shown_min, &shown_nat, NULL, NULL);
    if (orientation == GTK_ORIENTATION_VERTICAL) {
        int missing = full.height - shown_min;
        if (missing > 0) {
            *minimum += missing;
            *natural += missing;
        }
        return;
    }
    GtkWidget *scroller = gtk_widget_get_first_child(widget);
    int limit = GTK_IS_SCROLLED_WINDOW(scroller) ? gtk_scrolled_window_get_max_content_width(GTK_SCROLLED_WINDOW(scroller)) : -1;
    int wanted = limit >= 0 ? MIN(full.width, limit) : full.width;
    *natural = MAX(*natural, wanted + MAX(0, *natural - shown_nat));
}

static inline GtkWidget *agent_full_text_box_new(GtkWidget *child, GtkWidget *view) {
    GtkWidget *box = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0);
    g_object_set_data(G_OBJECT(box), "agent-text-view", view);
    gtk_widget_set_layout_manager(box, gtk_custom_layout_new(agent_height_for_width_mode, agent_full_text_measure,
                                                             agent_fill_allocate));
    gtk_box_append(GTK_BOX(box), child);
    return box;
}

/* How long the main loop works between two waits (g_main_context_set_poll_func wraps the
 * wait): the longest such stretch is the longest any input could wait for an answer.
 * Benchmarks only (FrameMeter). */
typedef struct {
    GPollFunc poll;
    gint64 woke;
    gint64 longest_us;
    guint64 iterations;
    guint64 over_budget;
    gint64 budget_us;
} AgentLoopMeter;

/* A static in a header is one per Swift source file that uses it: call these from one file
 * (Support/FrameMeter.swift). */
static inline AgentLoopMeter *agent_loop_meter_state(void) {
    static AgentLoopMeter meter;
    return &meter;
}

static inline gint agent_loop_meter_poll(GPollFD *fds, guint nfds, gint timeout) {
    AgentLoopMeter *meter = agent_loop_meter_state();
    gint64 now = g_get_monotonic_time();
    if (meter->woke != 0) {
        gint64 busy = now - meter->woke;
        if (busy > meter->longest_us) meter->longest_us = busy;
        if (busy > meter->budget_us) meter->over_budget++;
        meter->iterations++;
    }
    gint result = meter->poll(fds, nfds, timeout);
    meter->woke = g_get_monotonic_time();
    return result;
}

/* Installs the meter on the default main context (once). */
static inline void agent_loop_meter_start(gint64 budget_us) {
    AgentLoopMeter *meter = agent_loop_meter_state();
    meter->budget_us = budget_us;
    if (meter->poll != NULL) return;
    meter->poll = g_main_context_get_poll_func(NULL);
    g_main_context_set_poll_func(NULL, agent_loop_meter_poll);
}

static inline AgentLoopMeter agent_loop_meter_read(void) {
    return *agent_loop_meter_state();
}

/* Files and images given to the window: dropped, or pasted from the clipboard. Each
 * callback runs once, on the main thread; paths are NULL-terminated and freed after it
 * returns, NULL when nothing could be read. */
typedef void (*agent_paths_received)(char **paths, void *context);
typedef void (*agent_png_received)(const void *bytes, gsize length, void *context);

/* The local paths in a GdkFileList value (a drop); free with g_strfreev. */
static inline char **agent_file_list_paths(const GValue *value) {
    GPtrArray *paths = g_ptr_array_new();
    GSList *files = G_VALUE_HOLDS(value, GDK_TYPE_FILE_LIST) ? g_value_get_boxed(value) : NULL;
    for (GSList *file = files; file; file = file->next) {
        char *path = g_file_get_path(G_FILE(file->data));
        if (path) g_ptr_array_add(paths, path);
    }
    g_ptr_array_add(paths, NULL);
    return (char **)g_ptr_array_free(paths, FALSE);
}

/* What a paste into the message field should take: 1 files (a file manager's copy), 2 an
 * image with no text beside it (a screenshot), 0 anything else (the text view pastes text). */
static inline int agent_clipboard_attachment_kind(GdkClipboard *clipboard) {
    GdkContentFormats *formats = gdk_clipboard_get_formats(clipboard);
    if (gdk_content_formats_contain_mime_type(formats, "text/uri-list")) return 1;
    GdkContentFormats *types = gdk_content_formats_union_deserialize_gtypes(gdk_content_formats_ref(formats));
    int image = gdk_content_formats_contain_gtype(types, GDK_TYPE_TEXTURE) && !gdk_content_formats_contain_gtype(types, G_TYPE_STRING);
    gdk_content_formats_unref(types);
    return image ? 2 : 0;
}

typedef struct {
    agent_paths_received paths;
    agent_png_received png;
    void *context;
} AgentClipboardRead;

static void agent_clipboard_files_read(GObject *source, GAsyncResult *result, gpointer data) {
    AgentClipboardRead *read = data;
    const GValue *value = gdk_clipboard_read_value_finish(GDK_CLIPBOARD(source), result, NULL);
    char **paths = value ? agent_file_list_paths(value) : NULL;
    read->paths(paths, read->context);
    g_strfreev(paths);
    g_free(read);
}

static void agent_clipboard_texture_read(GObject *source, GAsyncResult *result, gpointer data) {
    AgentClipboardRead *read = data;
    GdkTexture *texture = gdk_clipboard_read_texture_finish(GDK_CLIPBOARD(source), result, NULL);
    GBytes *bytes = texture ? gdk_texture_save_to_png_bytes(texture) : NULL;
    gsize length = 0;
    const void *png = bytes ? g_bytes_get_data(bytes, &length) : NULL;
    read->png(png, length, read->context);
    if (bytes) g_bytes_unref(bytes);
    if (texture) g_object_unref(texture);
    g_free(read);
}

static inline void agent_clipboard_read_files(GdkClipboard *clipboard, agent_paths_received callback, void *context) {
    AgentClipboardRead *read = g_new0(AgentClipboardRead, 1);
    read->paths = callback;
    read->context = context;
    gdk_clipboard_read_value_async(clipboard, GDK_TYPE_FILE_LIST, G_PRIORITY_DEFAULT, NULL, agent_clipboard_files_read, read);
}

static inline void agent_clipboard_read_png(GdkClipboard *clipboard, agent_png_received callback, void *context) {
    AgentClipboardRead *read = g_new0(AgentClipboardRead, 1);
    read->png = callback;
    read->context = context;
    gdk_clipboard_read_texture_async(clipboard, NULL, agent_clipboard_texture_read, read);
}

/* AdwApplication with a hook in GApplication's dbus_register: objects exported there (the
 * GNOME Shell search provider) exist before the bus name is taken, so a D-Bus activation's
 * first call finds them. The type is registered once per process, whichever module asks. */
typedef void (*agent_dbus_registered)(GDBusConnection *connection, const char *object_path, void *data);

static gboolean agent_application_dbus_register(GApplication *application, GDBusConnection *connection,
                                                const gchar *object_path, GError **error) {
    GApplicationClass *parent = g_type_class_peek(ADW_TYPE_APPLICATION);
    if (!parent->dbus_register(application, connection, object_path, error)) return FALSE;
    agent_dbus_registered registered = (agent_dbus_registered)g_object_get_data(G_OBJECT(application), "agent-dbus-registered");
    if (registered) registered(connection, object_path, g_object_get_data(G_OBJECT(application), "agent-dbus-registered-data"));
    return TRUE;
}

static void agent_application_class_init(gpointer klass, gpointer data) {
    (void)data;
    G_APPLICATION_CLASS(klass)->dbus_register = agent_application_dbus_register;
}

static inline GType agent_application_get_type(void) {
    GType type = g_type_from_name("AgentAdwApplication");
    if (type == 0) {
        GTypeQuery query;
        g_type_query(ADW_TYPE_APPLICATION, &query);
        type = g_type_register_static_simple(ADW_TYPE_APPLICATION, "AgentAdwApplication", query.class_size,
                                             agent_application_class_init, query.instance_size, NULL, 0);
    }
    return type;
}

/* The application, `registered` told of its D-Bus connection and object path. */
static inline GtkApplication *agent_application_new(const char *application_id, GApplicationFlags flags,
                                                    agent_dbus_registered registered, void *data) {
    GApplication *application = g_object_new(agent_application_get_type(), "application-id", application_id, "flags", flags, NULL);
    g_object_set_data(G_OBJECT(application), "agent-dbus-registered", (gpointer)registered);
    g_object_set_data(G_OBJECT(application), "agent-dbus-registered-data", data);
    return GTK_APPLICATION(application);
}

#endif
