/* speech-dispatcher's client library (libspeechd) for reading replies aloud, loaded on first
 * use: Agent runs without it, and then says what to install. Only its types come from
 * libspeechd-dev's header. libspeechd's callbacks carry no user data, so they all go through
 * one sink with the connection's client id; they arrive on libspeechd's own thread. */
#ifndef AGENT_CSPEECH_SHIM_H
#define AGENT_CSPEECH_SHIM_H

#include <dlfcn.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <speech-dispatcher/libspeechd.h>

typedef struct {
    SPDConnection *(*open2)(const char *, const char *, const char *, SPDConnectionMode, const SPDConnectionAddress *,
                            int, char **);
    void (*close)(SPDConnection *);
    int (*get_client_id)(SPDConnection *);
    int (*say)(SPDConnection *, SPDPriority, const char *);
    int (*cancel)(SPDConnection *);
    int (*set_notification_on)(SPDConnection *, SPDNotification);
    int (*set_data_mode)(SPDConnection *, SPDDataMode);
    int (*set_language)(SPDConnection *, const char *);
    int loaded;
} AgentSpeech;

static inline AgentSpeech *agent_speech_state(void) {
    static AgentSpeech table;
    return &table;
}

static inline pthread_once_t *agent_speech_once(void) {
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    return &once;
}

static inline void agent_speech_load(void) {
    AgentSpeech *table = agent_speech_state();
    void *library = dlopen("libspeechd.so.2", RTLD_NOW | RTLD_LOCAL);
    if (!library) return;
    *(void **)(&table->open2) = dlsym(library, "spd_open2");
    *(void **)(&table->close) = dlsym(library, "spd_close");
    *(void **)(&table->get_client_id) = dlsym(library, "spd_get_client_id");
    *(void **)(&table->say) = dlsym(library, "spd_say");
    *(void **)(&table->cancel) = dlsym(library, "spd_cancel");
    *(void **)(&table->set_notification_on) = dlsym(library, "spd_set_notification_on");
    *(void **)(&table->set_data_mode) = dlsym(library, "spd_set_data_mode");
    *(void **)(&table->set_language) = dlsym(library, "spd_set_language");
    table->loaded = table->open2 && table->close && table->get_client_id && table->say && table->cancel
        && table->set_notification_on && table->set_data_mode && table->set_language;
}

/* What libspeechd reports, as the sink receives it. */
typedef enum {
    AGENT_SPEECH_BEGIN,
    AGENT_SPEECH_END,
    AGENT_SPEECH_CANCEL,
    AGENT_SPEECH_MARK,
} AgentSpeechEventKind;

/* Called on libspeechd's thread; `mark` is the index mark's name (AGENT_SPEECH_MARK), else NULL. */
typedef void (*agent_speech_sink)(AgentSpeechEventKind kind, size_t message, size_t client, const char *mark);

static inline agent_speech_sink *agent_speech_sink_slot(void) {
    static agent_speech_sink sink;
    return &sink;
}

/* spd_close cancels libspeechd's thread (pthread_cancel): never while it runs the Swift sink,
 * where unwinding would leave locks held. */
static inline void agent_speech_deliver(AgentSpeechEventKind kind, size_t message, size_t client, const char *mark) {
    agent_speech_sink sink = *agent_speech_sink_slot();
    if (!sink) return;
    int previous;
    pthread_setcancelstate(PTHREAD_CANCEL_DISABLE, &previous);
    sink(kind, message, client, mark);
    pthread_setcancelstate(previous, NULL);
}

static inline void agent_speech_forward(size_t message, size_t client, SPDNotificationType type) {
    if (type == SPD_EVENT_BEGIN) agent_speech_deliver(AGENT_SPEECH_BEGIN, message, client, NULL);
    else if (type == SPD_EVENT_END) agent_speech_deliver(AGENT_SPEECH_END, message, client, NULL);
    else if (type == SPD_EVENT_CANCEL) agent_speech_deliver(AGENT_SPEECH_CANCEL, message, client, NULL);
}

static inline void agent_speech_forward_mark(size_t message, size_t client, SPDNotificationType type, char *mark) {
    if (mark) agent_speech_deliver(AGENT_SPEECH_MARK, message, client, mark);
}

/* Opens a threaded connection to speech-dispatcher reporting begin, end, cancel and index
 * marks to `sink`, with SSML text in `language`: at `socket_path`, or where the desktop's is
 * when NULL ($SPEECHD_ADDRESS, else the user's runtime folder), starting the service there
 * when `autospawn` allows. NULL when the service cannot be reached, with libspeechd's reason in
 * *error (free it); with *error NULL when libspeechd itself is not installed. */
static inline SPDConnection *agent_speech_open(const char *socket_path, int autospawn, const char *language,
                                               agent_speech_sink sink, char **error) {
    *error = NULL;
    pthread_once(agent_speech_once(), agent_speech_load);
    AgentSpeech *table = agent_speech_state();
    if (!table->loaded) return NULL;
    *agent_speech_sink_slot() = sink;
    SPDConnectionAddress address = { SPD_METHOD_UNIX_SOCKET, (char *)socket_path, NULL, 0, NULL };
    char *reason = NULL;
    /* A service started here inherits this thread's signal mask, and a worker thread blocks
     * most signals: the service would ignore SIGTERM (at logout, say). */
    sigset_t none, kept;
    sigemptyset(&none);
    pthread_sigmask(SIG_SETMASK, &none, &kept);
    SPDConnection *connection = table->open2("agent", "read-aloud", NULL, SPD_MODE_THREADED,
                                             socket_path ? &address : NULL, autospawn, &reason);
    pthread_sigmask(SIG_SETMASK, &kept, NULL);
    if (!connection) {
        *error = reason ? reason : strdup("");
        return NULL;
    }
    free(reason);
    connection->callback_begin = agent_speech_forward;
    connection->callback_end = agent_speech_forward;
    connection->callback_cancel = agent_speech_forward;
    connection->callback_im = agent_speech_forward_mark;
    table->set_notification_on(connection, SPD_BEGIN);
    table->set_notification_on(connection, SPD_END);
    table->set_notification_on(connection, SPD_CANCEL);
    table->set_notification_on(connection, SPD_INDEX_MARKS);
    table->set_data_mode(connection, SPD_DATA_SSML);
    table->set_language(connection, language);
    return connection;
}

static inline int agent_speech_client_id(SPDConnection *connection) {
    return agent_speech_state()->get_client_id(connection);
}

/* Queues `ssml` as text to read; the message's id, or -1. */
static inline int agent_speech_say(SPDConnection *connection, const char *ssml) {
    return agent_speech_state()->say(connection, SPD_TEXT, ssml);
}

/* Ends what is being read and drops what is queued (a CANCEL follows). */
static inline int agent_speech_cancel(SPDConnection *connection) {
    return agent_speech_state()->cancel(connection);
}

static inline void agent_speech_close(SPDConnection *connection) {
    agent_speech_state()->close(connection);
}

#endif
