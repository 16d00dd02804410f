/* poppler-glib for the text of attached PDFs, loaded on first use rather than at start-up:
 * poppler brings a dozen libraries (cairo's PDF side, NSS, lcms, openjpeg…) that no launch
 * should pay for. The few calls Agent makes are typed here. */
#ifndef AGENT_CPOPPLER_SHIM_H
#define AGENT_CPOPPLER_SHIM_H

#include <dlfcn.h>
#include <glib.h>
#include <glib-object.h>
#include <pthread.h>

typedef struct {
    void *(*document_new_from_bytes)(GBytes *bytes, const char *password, GError **error);
    int (*document_get_n_pages)(void *document);
    void *(*document_get_page)(void *document, int index);
    char *(*page_get_text)(void *page);
    int loaded;
} AgentPoppler;

static inline AgentPoppler *agent_poppler_state(void) {
    static AgentPoppler table;
    return &table;
}

static inline pthread_once_t *agent_poppler_once(void) {
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    return &once;
}

static inline void agent_poppler_load(void) {
    AgentPoppler *table = agent_poppler_state();
    void *library = dlopen("libpoppler-glib.so.8", RTLD_NOW | RTLD_LOCAL);
    if (!library) return;
    *(void **)(&table->document_new_from_bytes) = dlsym(library, "poppler_document_new_from_bytes");
    *(void **)(&table->document_get_n_pages) = dlsym(library, "poppler_document_get_n_pages");
    *(void **)(&table->document_get_page) = dlsym(library, "poppler_document_get_page");
    *(void **)(&table->page_get_text) = dlsym(library, "poppler_page_get_text");
    table->loaded = table->document_new_from_bytes && table->document_get_n_pages && table->document_get_page
        && table->page_get_text;
}

/* Opens the PDF in `data` (copied); NULL with *error_message set (free it with g_free) when
 * it cannot be read, or when poppler-glib is not installed. */
static inline void *agent_pdf_open(const void *data, gsize length, char **error_message) {
    pthread_once(agent_poppler_once(), agent_poppler_load);
    AgentPoppler *table = agent_poppler_state();
    *error_message = NULL;
    if (!table->loaded) {
        *error_message = g_strdup("the PDF library (poppler-glib) is not installed");
        return NULL;
    }
    GError *error = NULL;
    GBytes *bytes = g_bytes_new(data, length);
    void *document = table->document_new_from_bytes(bytes, NULL, &error);
    g_bytes_unref(bytes);
    if (!document) {
        *error_message = g_strdup(error ? error->message : "poppler could not open it");
        g_clear_error(&error);
    }
    return document;
}

static inline int agent_pdf_page_count(void *document) {
    return agent_poppler_state()->document_get_n_pages(document);
}

/* The text of page `index` (from 0), or NULL; free it with g_free. */
static inline char *agent_pdf_page_text(void *document, int index) {
    void *page = agent_poppler_state()->document_get_page(document, index);
    if (!page) return NULL;
    char *text = agent_poppler_state()->page_get_text(page);
    g_object_unref(page);
    return text;
}

static inline void agent_pdf_close(void *document) {
    g_object_unref(document);
}

#endif
