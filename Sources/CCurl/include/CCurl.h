/* libcurl for the core, loaded on first use rather than at start-up: libcurl brings some
 * twenty libraries of its own (TLS, Kerberos, LDAP, SSH, IDN…), and loading and relocating
 * them on every launch cost the window's first frame. Also typed wrappers for libcurl's
 * variadic calls, which Swift cannot make. */
#ifndef AGENT_CCURL_H
#define AGENT_CCURL_H

#include <curl/curl.h>
#include <stddef.h>

typedef size_t (*agent_curl_data_callback)(char *data, size_t size, size_t count, void *context);

typedef struct {
    CURLcode (*global_init)(long);
    CURL *(*easy_init)(void);
    void (*easy_cleanup)(CURL *);
    CURLcode (*easy_setopt)(CURL *, CURLoption, ...);
    CURLcode (*easy_getinfo)(CURL *, CURLINFO, ...);
    const char *(*easy_strerror)(CURLcode);
    CURLM *(*multi_init)(void);
    CURLMcode (*multi_cleanup)(CURLM *);
    CURLMcode (*multi_add_handle)(CURLM *, CURL *);
    CURLMcode (*multi_remove_handle)(CURLM *, CURL *);
    CURLMcode (*multi_perform)(CURLM *, int *);
    CURLMcode (*multi_poll)(CURLM *, struct curl_waitfd *, unsigned int, int, int *);
    CURLMcode (*multi_wakeup)(CURLM *);
    CURLMcode (*multi_setopt)(CURLM *, CURLMoption, ...);
    CURLSH *(*share_init)(void);
    CURLSHcode (*share_setopt)(CURLSH *, CURLSHoption, ...);
    CURLSHcode (*share_cleanup)(CURLSH *);
    CURLMsg *(*multi_info_read)(CURLM *, int *);
    struct curl_slist *(*slist_append)(struct curl_slist *, const char *);
    void (*slist_free_all)(struct curl_slist *);
    int loaded;
} AgentCurl;

/* The one table of libcurl's functions, filled by agent_curl_available() (CCurl.c). */
AgentCurl *agent_curl_state(void);

#define agent_curl_table (*agent_curl_state())

/* Loads libcurl (once) and initialises it; false when it cannot be loaded. */
int agent_curl_available(void);

/* The calls below are only made after agent_curl_available() returned true. */
static inline CURL *agent_curl_easy_init(void) { return agent_curl_table.easy_init(); }
static inline void agent_curl_easy_cleanup(CURL *easy) { agent_curl_table.easy_cleanup(easy); }
static inline const char *agent_curl_easy_strerror(CURLcode code) { return agent_curl_table.easy_strerror(code); }
static inline CURLM *agent_curl_multi_init(void) { return agent_curl_table.multi_init(); }
static inline CURLMcode agent_curl_multi_cleanup(CURLM *multi) { return agent_curl_table.multi_cleanup(multi); }
static inline CURLMcode agent_curl_multi_add_handle(CURLM *multi, CURL *easy) { return agent_curl_table.multi_add_handle(multi, easy); }
static inline CURLMcode agent_curl_multi_remove_handle(CURLM *multi, CURL *easy) { return agent_curl_table.multi_remove_handle(multi, easy); }
static inline CURLMcode agent_curl_multi_perform(CURLM *multi, int *running) { return agent_curl_table.multi_perform(multi, running); }
static inline CURLMcode agent_curl_multi_poll(CURLM *multi, int timeout_ms) { return agent_curl_table.multi_poll(multi, NULL, 0, timeout_ms, NULL); }
static inline CURLMcode agent_curl_multi_wakeup(CURLM *multi) { return agent_curl_table.multi_wakeup(multi); }
static inline CURLMsg *agent_curl_multi_info_read(CURLM *multi, int *remaining) { return agent_curl_table.multi_info_read(multi, remaining); }
static inline CURLMcode agent_curl_multi_set_long(CURLM *multi, CURLMoption option, long value) {
    return agent_curl_table.multi_setopt(multi, option, value);
}

/* A share object holding TLS sessions, so a new connection to a server resumes the last
 * one's session; used from one thread only, so it needs no lock callbacks. */
static inline CURLSH *agent_curl_share_tls_sessions(void) {
    CURLSH *share = agent_curl_table.share_init();
    if (share && agent_curl_table.share_setopt(share, CURLSHOPT_SHARE, CURL_LOCK_DATA_SSL_SESSION) != CURLSHE_OK) {
        agent_curl_table.share_cleanup(share);
        return NULL;
    }
    return share;
}

/* Frees a share object once no easy handle uses it. */
static inline void agent_curl_share_cleanup(CURLSH *share) { agent_curl_table.share_cleanup(share); }

static inline struct curl_slist *agent_curl_slist_append(struct curl_slist *list, const char *line) { return agent_curl_table.slist_append(list, line); }
static inline void agent_curl_slist_free_all(struct curl_slist *list) { agent_curl_table.slist_free_all(list); }

static inline CURLcode agent_curl_set_long(CURL *easy, CURLoption option, long value) {
    return agent_curl_table.easy_setopt(easy, option, value);
}

static inline CURLcode agent_curl_set_string(CURL *easy, CURLoption option, const char *value) {
    return agent_curl_table.easy_setopt(easy, option, value);
}

static inline CURLcode agent_curl_set_pointer(CURL *easy, CURLoption option, void *value) {
    return agent_curl_table.easy_setopt(easy, option, value);
}

static inline CURLcode agent_curl_set_data_callback(CURL *easy, CURLoption option, agent_curl_data_callback callback) {
    return agent_curl_table.easy_setopt(easy, option, callback);
}

static inline CURLcode agent_curl_set_body(CURL *easy, const char *bytes, long length) {
    CURLcode code = agent_curl_table.easy_setopt(easy, CURLOPT_POSTFIELDSIZE, length);
    if (code != CURLE_OK) return code;
    return agent_curl_table.easy_setopt(easy, CURLOPT_COPYPOSTFIELDS, bytes);
}

/* Bytes of the request body sent so far. */
static inline curl_off_t agent_curl_uploaded(CURL *easy) {
    curl_off_t sent = 0;
    agent_curl_table.easy_getinfo(easy, CURLINFO_SIZE_UPLOAD_T, &sent);
    return sent;
}

static inline long agent_curl_response_code(CURL *easy) {
    long code = 0;
    agent_curl_table.easy_getinfo(easy, CURLINFO_RESPONSE_CODE, &code);
    return code;
}

#endif
