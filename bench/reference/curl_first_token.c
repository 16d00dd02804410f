/* The reference for time to first token on a reused connection: libcurl (what `curl` is
 * built on) in one thread, one easy handle sending COUNT requests in a row to URL, so each
 * after the first goes over the kept-alive connection. Prints each request's time in
 * milliseconds from the start of its transfer until the first token ("t0 ") is in hand: the
 * floor no client can beat, with no hand-off between threads.
 *
 *     curl-first-token URL CAFILE COUNT
 */
#define _GNU_SOURCE /* memmem */
#include <curl/curl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define TOKEN "\"t0 \""
#define TOKEN_LENGTH (sizeof TOKEN - 1)

struct message {
    struct timespec start;
    double first_token_ms;
    /* The body so far, searched whole: a token may be split between two chunks. */
    char body[64 * 1024];
    size_t length;
};

static double elapsed_ms(const struct timespec *start) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (now.tv_sec - start->tv_sec) * 1e3 + (now.tv_nsec - start->tv_nsec) / 1e6;
}

static size_t on_body(char *data, size_t size, size_t count, void *context) {
    struct message *message = context;
    size_t length = size * count;
    if (message->first_token_ms >= 0) return length;
    size_t room = sizeof message->body - message->length;
    size_t kept = length < room ? length : room;
    memcpy(message->body + message->length, data, kept);
    message->length += kept;
    if (memmem(message->body, message->length, TOKEN, TOKEN_LENGTH))
        message->first_token_ms = elapsed_ms(&message->start);
    return length;
}

int main(int argc, char **argv) {
    if (argc != 4) {
        fprintf(stderr, "usage: curl-first-token URL CAFILE COUNT\n");
        return 2;
    }
    int count = atoi(argv[3]);
    curl_global_init(CURL_GLOBAL_DEFAULT);
    CURL *easy = curl_easy_init();
    struct curl_slist *headers = curl_slist_append(NULL, "Content-Type: application/json");
    const char *body = "{\"model\": \"m\", \"stream\": true, \"messages\": [{\"role\": \"user\", \"content\": \"hi\"}]}";
    struct message message;
    curl_easy_setopt(easy, CURLOPT_URL, argv[1]);
    curl_easy_setopt(easy, CURLOPT_CAINFO, argv[2]);
    curl_easy_setopt(easy, CURLOPT_HTTPHEADER, headers);
    curl_easy_setopt(easy, CURLOPT_POSTFIELDS, body);
    curl_easy_setopt(easy, CURLOPT_WRITEFUNCTION, on_body);
    curl_easy_setopt(easy, CURLOPT_WRITEDATA, &message);
    for (int index = 0; index < count; index++) {
        memset(&message, 0, sizeof message);
        message.first_token_ms = -1;
        clock_gettime(CLOCK_MONOTONIC, &message.start);
        CURLcode result = curl_easy_perform(easy);
        if (result != CURLE_OK || message.first_token_ms < 0) {
            fprintf(stderr, "request %d: %s\n", index + 1,
                    result != CURLE_OK ? curl_easy_strerror(result) : "no token in the reply");
            return 1;
        }
        printf("%.3f\n", message.first_token_ms);
    }
    curl_slist_free_all(headers);
    curl_easy_cleanup(easy);
    curl_global_cleanup();
    return 0;
}
