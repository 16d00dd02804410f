/* gdk-pixbuf for attached images, loaded on first use: the command line and a window that
 * never sees an image do not pay for it. Decodes PNG, JPEG, GIF (its first frame) and WebP
 * (with webp-pixbuf-loader) scaled as it decodes, and encodes PNG or JPEG. */
#ifndef AGENT_CPIXBUF_SHIM_H
#define AGENT_CPIXBUF_SHIM_H

#include <dlfcn.h>
#include <glib.h>
#include <glib-object.h>
#include <gio/gio.h>
#include <pthread.h>

typedef struct {
    void *(*loader_new)(void);
    gboolean (*loader_write)(void *loader, const guchar *bytes, gsize count, GError **error);
    gboolean (*loader_close)(void *loader, GError **error);
    void *(*loader_get_pixbuf)(void *loader);
    void (*loader_set_size)(void *loader, int width, int height);
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
    *(void **)(&table->loader_new) = dlsym(library, "gdk_pixbuf_loader_new");
    *(void **)(&table->loader_write) = dlsym(library, "gdk_pixbuf_loader_write");
    *(void **)(&table->loader_close) = dlsym(library, "gdk_pixbuf_loader_close");
    *(void **)(&table->loader_get_pixbuf) = dlsym(library, "gdk_pixbuf_loader_get_pixbuf");
    *(void **)(&table->loader_set_size) = dlsym(library, "gdk_pixbuf_loader_set_size");
    *(void **)(&table->save_to_bufferv) = dlsym(library, "gdk_pixbuf_save_to_bufferv");
    table->loaded = table->loader_new && table->loader_write && table->loader_close && table->loader_get_pixbuf
        && table->loader_set_size && table->save_to_bufferv;
}

static inline void agent_set_message(char **message, GError *error, const char *fallback) {
    *message = g_strdup(error ? error->message : fallback);
    g_clear_error(&error);
}

/* An image larger than this many pixels is refused before it is decoded (a small file can
 * claim a vast image). */
#define AGENT_IMAGE_MAX_PIXELS (100LL * 1000 * 1000)

typedef struct {
    int longest_side;
    int too_large;
    int width, height;
} AgentImageLimits;

/* Once the header is read: refuse a vast image, and have a large one decoded already
 * scaled so that its long side is at most `longest_side`. */
static void agent_image_size_prepared(void *loader, int width, int height, gpointer data) {
    AgentImageLimits *limits = data;
    limits->width = width;
    limits->height = height;
    if ((long long)width * height > AGENT_IMAGE_MAX_PIXELS) {
        limits->too_large = 1;
        return;
    }
    int longest = width > height ? width : height;
    if (longest <= limits->longest_side) return;
    double scale = (double)limits->longest_side / longest;
    int scaled_width = (int)(width * scale + 0.5), scaled_height = (int)(height * scale + 0.5);
    agent_pixbuf_state()->loader_set_size(loader, scaled_width > 0 ? scaled_width : 1, scaled_height > 0 ? scaled_height : 1);
}

/* The image in `bytes` (a GdkPixbuf, release with g_object_unref), its long side at most
 * `longest_side`, with the size it has in the file in *width and *height; or NULL with
 * *message set (free with g_free) when it cannot be decoded, is too large, or gdk-pixbuf is
 * missing. Written to the loader in pieces, so a vast image stops at its header. */
static inline void *agent_image_decode(const void *bytes, gsize length, int longest_side, int *width, int *height,
                                       char **message) {
    pthread_once(agent_pixbuf_once(), agent_pixbuf_load);
    AgentPixbuf *table = agent_pixbuf_state();
    *message = NULL;
    if (!table->loaded) {
        *message = g_strdup("the image library (gdk-pixbuf) is not installed");
        return NULL;
    }
    AgentImageLimits limits = { longest_side, 0, 0, 0 };
    void *loader = table->loader_new();
    g_signal_connect(loader, "size-prepared", G_CALLBACK(agent_image_size_prepared), &limits);
    GError *error = NULL;
    gsize offset = 0;
    gboolean written = TRUE;
    while (written && offset < length && !limits.too_large) {
        gsize piece = length - offset < 65536 ? length - offset : 65536;
        written = table->loader_write(loader, (const guchar *)bytes + offset, piece, &error);
        offset += piece;
    }
    if (limits.too_large) {
        table->loader_close(loader, NULL);
        g_object_unref(loader);
        g_clear_error(&error);
        *message = g_strdup("it is larger than 100 megapixels");
        return NULL;
    }
    gboolean closed = table->loader_close(loader, written ? &error : NULL);
    *width = limits.width;
    *height = limits.height;
    void *pixbuf = written && closed && !limits.too_large ? table->loader_get_pixbuf(loader) : NULL;
    if (pixbuf) g_object_ref(pixbuf);
    else if (limits.too_large) {
        g_clear_error(&error);
        *message = g_strdup("it is larger than 100 megapixels");
    } else agent_set_message(message, error, "it could not be decoded");
    g_object_unref(loader);
    return pixbuf;
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
