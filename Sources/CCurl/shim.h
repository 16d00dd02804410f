/* Typed wrappers for libcurl's variadic calls, which Swift cannot make. */
#ifndef AGENT_CCURL_SHIM_H
#define AGENT_CCURL_SHIM_H

#include <curl/curl.h>

typedef size_t (*agent_curl_data_callback)(char *data, size_t size, size_t count, void *context);

static inline CURLcode agent_curl_set_long(CURL *easy, CURLoption option, long value) {
    return curl_easy_setopt(easy, option, value);
}

static inline CURLcode agent_curl_set_string(CURL *easy, CURLoption option, const char *value) {
    return curl_easy_setopt(easy, option, value);
}

static inline CURLcode agent_curl_set_pointer(CURL *easy, CURLoption option, void *value) {
    return curl_easy_setopt(easy, option, value);
}

static inline CURLcode agent_curl_set_data_callback(CURL *easy, CURLoption option, agent_curl_data_callback callback) {
    return curl_easy_setopt(easy, option, callback);
}

static inline CURLcode agent_curl_set_body(CURL *easy, const char *bytes, long length) {
    CURLcode code = curl_easy_setopt(easy, CURLOPT_POSTFIELDSIZE, length);
    if (code != CURLE_OK) return code;
    return curl_easy_setopt(easy, CURLOPT_COPYPOSTFIELDS, bytes);
}

static inline long agent_curl_response_code(CURL *easy) {
    long code = 0;
    curl_easy_getinfo(easy, CURLINFO_RESPONSE_CODE, &code);
    return code;
}

#endif
