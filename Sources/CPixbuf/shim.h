/* gdk-pixbuf for attached images, loaded on first use: the command line and a window that
 * never sees an image do not pay for it. Decodes PNG, JPEG, GIF (its first frame) and WebP
 * (with webp-pixbuf-loader), scales, and encodes PNG or JPEG. */
#ifndef AGENT_CPIXBUF_SHIM_H
#define AGENT_CPIXBUF_SHIM_H

#include <dlfcn.h>
#include <glib.h>
#include <glib-object.h>
#include <gio/gio.h>
#include <pthread.h>

typedef struct {
    void *(*new_from_stream)(GInputStream *stream, GCancellable *cancellable, GError **error);
    int (*get_width)(void *pixbuf);
    int (*get_height)(void *pixbuf);
    void *(*scale_simple)(void *pixbuf, int width, int height, int interpolation);
    gboolean (*save_to_bufferv)(void *pixbuf, char **buffer, gsize *size, const char *type,
                                char **keys, char **values, GError **error);
    int loaded;
} AgentPixbuf;

static inline AgentPixbuf *agent_pixbuf_state(void) {
    static AgentPixbuf table;
    return &table;
}

static inline pthread_once_t *agent_pixbuf_once(void) {
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    return &once;
}

static inline void agent_pixbuf_load(void) {
    AgentPixbuf *table = agent_pixbuf_state();
    void *library = dlopen("libgdk_pixbuf-2.0.so.0", RTLD_NOW | RTLD_LOCAL);
    if (!library) return;
    *(void **)(&table->new_from_stream) = dlsym(library, "gdk_pixbuf_new_from_stream");
    *(void **)(&table->get_width) = dlsym(library, "gdk_pixbuf_get_width");
    *(void **)(&table->get_height) = dlsym(library, "gdk_pixbuf_get_height");
    *(void **)(&table->scale_simple) = dlsym(library, "gdk_pixbuf_scale_simple");
    *(void **)(&table->save_to_bufferv) = dlsym(library, "gdk_pixbuf_save_to_bufferv");
    table->loaded = table->new_from_stream && table->get_width && table->get_height && table->scale_simple
        && table->save_to_bufferv;
}

static inline void agent_set_message(char **message, GError *error, const char *fallback) {
    *message = g_strdup(error ? error->message : fallback);
    g_clear_error(&error);
}

/* The image in `bytes` (a GdkPixbuf, release with g_object_unref), or NULL with *message set
 * (free with g_free) when it cannot be decoded or gdk-pixbuf is missing. */
static inline void *agent_image_decode(const void *bytes, gsize length, char **message) {
    pthread_once(agent_pixbuf_once(), agent_pixbuf_load);
    AgentPixbuf *table = agent_pixbuf_state();
    *message = NULL;
    if (!table->loaded) {
        *message = g_strdup("the image library (gdk-pixbuf) is not installed");
        return NULL;
    }
    GError *error = NULL;
    GInputStream *stream = g_memory_input_stream_new_from_data(bytes, (gssize)length, NULL);
    void *pixbuf = table->new_from_stream(stream, NULL, &error);
    g_object_unref(stream);
    if (!pixbuf) agent_set_message(message, error, "it could not be decoded");
    return pixbuf;
}

static inline int agent_image_width(void *pixbuf) { return agent_pixbuf_state()->get_width(pixbuf); }
static inline int agent_image_height(void *pixbuf) { return agent_pixbuf_state()->get_height(pixbuf); }

/* `pixbuf` scaled to width × height with bilinear filtering (a new reference), or NULL. */
static inline void *agent_image_scaled(void *pixbuf, int width, int height) {
    return agent_pixbuf_state()->scale_simple(pixbuf, width, height, 2 /* GDK_INTERP_BILINEAR */);
}

/* `pixbuf` encoded as `type` ("png" or "jpeg"); the bytes in *buffer (free with g_free), or
 * FALSE with *message set. */
static inline gboolean agent_image_encode(void *pixbuf, const char *type, char **buffer, gsize *size, char **message) {
    GError *error = NULL;
    char *keys[] = { "quality", NULL };
    char *values[] = { "90", NULL };
    int jpeg = g_strcmp0(type, "jpeg") == 0;
    *message = NULL;
    gboolean saved = agent_pixbuf_state()->save_to_bufferv(pixbuf, buffer, size, type, jpeg ? keys : NULL,
                                                          jpeg ? values : NULL, &error);
    if (!saved) agent_set_message(message, error, "it could not be encoded");
    return saved;
}

#endif
