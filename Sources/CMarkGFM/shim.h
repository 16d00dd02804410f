/* cmark-gfm, GitHub's CommonMark parser, with its extensions (tables, strikethrough,
 * autolinks, task lists). */
#ifndef AGENT_CMARK_SHIM_H
#define AGENT_CMARK_SHIM_H

#include <cmark-gfm.h>
#include <cmark-gfm-extension_api.h>
#include <cmark-gfm-core-extensions.h>
#include <pthread.h>

/* cmark-gfm registers its extensions behind a plain flag: two threads parsing their first
 * Markdown at once could find a half-filled registry (a test run found strikethrough
 * missing). Register exactly once, before any parse. */
static inline void agent_markdown_register_extensions(void) {
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, cmark_gfm_core_extensions_ensure_registered);
}

/* Parses `length` bytes of Markdown with the GFM extensions attached. Free the result
 * with cmark_node_free. One parse at a time: a parser adds its extensions' special
 * characters (strikethrough's `~`) to a table cmark-gfm shares between all parsers, and
 * takes them out again when it finishes — in the middle of another thread's parse. */
static inline cmark_node *agent_markdown_parse(const char *text, size_t length) {
    static pthread_mutex_t parsing = PTHREAD_MUTEX_INITIALIZER;
    agent_markdown_register_extensions();
    pthread_mutex_lock(&parsing);
    cmark_parser *parser = cmark_parser_new(CMARK_OPT_DEFAULT | CMARK_OPT_VALIDATE_UTF8 | CMARK_OPT_FOOTNOTES);
    const char *names[] = { "table", "strikethrough", "autolink", "tasklist" };
    for (size_t index = 0; index < sizeof names / sizeof names[0]; index++) {
        cmark_syntax_extension *extension = cmark_find_syntax_extension(names[index]);
        if (extension) cmark_parser_attach_syntax_extension(parser, extension);
    }
    cmark_parser_feed(parser, text, length);
    cmark_node *document = cmark_parser_finish(parser);
    cmark_parser_free(parser);
    pthread_mutex_unlock(&parsing);
    return document;
}

/* 1 for a checked task-list item. */
static inline int agent_markdown_task_checked(cmark_node *node) {
    return cmark_gfm_extensions_get_tasklist_item_checked(node) ? 1 : 0;
}

#endif
