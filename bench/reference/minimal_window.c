/* The startup reference: the smallest GTK 4 application window, reporting its first
 * painted frame the same way Agent does (CLOCK_MONOTONIC, and the process's CPU time, at the
 * first after-paint).
 * BENCH_STAY=1 keeps it open afterwards so its idle memory can be read. */
#include <gtk/gtk.h>
#include <stdio.h>
#include <time.h>

static gboolean stay;

static void after_paint(GdkFrameClock *clock, gpointer app) {
    static gboolean reported;
    (void)clock;
    if (reported) return;
    reported = TRUE;
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    struct timespec cpu;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &cpu);
    printf("first-frame %lld %lld\n", (long long)now.tv_sec * 1000000000LL + now.tv_nsec,
           (long long)cpu.tv_sec * 1000000000LL + cpu.tv_nsec);
    fflush(stdout);
    if (!stay) g_application_quit(G_APPLICATION(app));
}

static void on_map(GtkWidget *window, gpointer app) {
    g_signal_connect_after(gtk_widget_get_frame_clock(window), "after-paint", G_CALLBACK(after_paint), app);
}

static void activate(GtkApplication *app, gpointer data) {
    (void)data;
    GtkWidget *window = gtk_application_window_new(app);
    gtk_window_set_title(GTK_WINDOW(window), "Minimal");
    gtk_window_set_default_size(GTK_WINDOW(window), 760, 680);
    gtk_window_set_child(GTK_WINDOW(window), gtk_label_new("Hello"));
    g_signal_connect(window, "map", G_CALLBACK(on_map), app);
    gtk_window_present(GTK_WINDOW(window));
}

int main(void) {
    stay = g_getenv("BENCH_STAY") != NULL;
    GtkApplication *app = gtk_application_new("org.gtk.MinimalBench", G_APPLICATION_NON_UNIQUE);
    g_signal_connect(app, "activate", G_CALLBACK(activate), NULL);
    int status = g_application_run(G_APPLICATION(app), 0, NULL);
    g_object_unref(app);
    return status;
}
