/* The table of libcurl's functions, one for the whole process: Swift compiles each source
 * file of a module on its own, and a static in a header would give every file a table of its
 * own, filled only where agent_curl_available() ran. */
#include "CCurl.h"

#include <dlfcn.h>
#include <pthread.h>

static AgentCurl table;
static pthread_once_t once = PTHREAD_ONCE_INIT;

AgentCurl *agent_curl_state(void) {
    return &table;
}

static void agent_curl_load(void) {
    void *library = dlopen("libcurl.so.4", RTLD_NOW | RTLD_LOCAL);
    if (!library) return;
#define AGENT_CURL_SYMBOL(field, name) \
    *(void **)(&table.field) = dlsym(library, name); \
    if (!table.field) return;
    AGENT_CURL_SYMBOL(global_init, "curl_global_init")
    AGENT_CURL_SYMBOL(easy_init, "curl_easy_init")
    AGENT_CURL_SYMBOL(easy_cleanup, "curl_easy_cleanup")
    AGENT_CURL_SYMBOL(easy_setopt, "curl_easy_setopt")
    AGENT_CURL_SYMBOL(easy_getinfo, "curl_easy_getinfo")
    AGENT_CURL_SYMBOL(easy_strerror, "curl_easy_strerror")
    AGENT_CURL_SYMBOL(multi_init, "curl_multi_init")
    AGENT_CURL_SYMBOL(multi_cleanup, "curl_multi_cleanup")
    AGENT_CURL_SYMBOL(multi_add_handle, "curl_multi_add_handle")
    AGENT_CURL_SYMBOL(multi_remove_handle, "curl_multi_remove_handle")
    AGENT_CURL_SYMBOL(multi_perform, "curl_multi_perform")
    AGENT_CURL_SYMBOL(multi_poll, "curl_multi_poll")
    AGENT_CURL_SYMBOL(multi_wakeup, "curl_multi_wakeup")
    AGENT_CURL_SYMBOL(multi_setopt, "curl_multi_setopt")
    AGENT_CURL_SYMBOL(share_init, "curl_share_init")
    AGENT_CURL_SYMBOL(share_setopt, "curl_share_setopt")
    AGENT_CURL_SYMBOL(share_cleanup, "curl_share_cleanup")
    AGENT_CURL_SYMBOL(multi_info_read, "curl_multi_info_read")
    AGENT_CURL_SYMBOL(slist_append, "curl_slist_append")
    AGENT_CURL_SYMBOL(slist_free_all, "curl_slist_free_all")
#undef AGENT_CURL_SYMBOL
    table.global_init(CURL_GLOBAL_DEFAULT);
    table.loaded = 1;
}

int agent_curl_available(void) {
    pthread_once(&once, agent_curl_load);
    return table.loaded;
}
