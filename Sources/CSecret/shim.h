/* libsecret (the Secret Service: GNOME Keyring, KWallet): API keys, stored per server
 * profile. The attribute tables libsecret's "v" calls take are built here. The calls are
 * never cancelled: cancelling one in flight can make GIO return a task twice (a
 * GLib-GIO-CRITICAL); the caller stops waiting instead (SecretStore). */
#ifndef AGENT_CSECRET_SHIM_H
#define AGENT_CSECRET_SHIM_H

#define SECRET_API_SUBJECT_TO_CHANGE
#include <libsecret/secret.h>

static inline const SecretSchema *agent_secret_schema(void) {
    static const SecretSchema schema = {
        "io.github.agentdesktop.Agent.ApiKey", SECRET_SCHEMA_NONE,
        {
            { "profile", SECRET_SCHEMA_ATTRIBUTE_STRING },
            { NULL, 0 },
        }
    };
    return &schema;
}

static inline GHashTable *agent_secret_attributes(const char *profile) {
    GHashTable *attributes = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
    g_hash_table_insert(attributes, g_strdup("profile"), g_strdup(profile));
    return attributes;
}

/* The desktop's Secret Service (shared; unref when done). */
static inline SecretService *agent_secret_service(GError **error) {
    return secret_service_get_sync(SECRET_SERVICE_NONE, NULL, error);
}

static inline gboolean agent_secret_store(const char *profile, const char *label, const char *password,
                                          GError **error) {
    SecretService *service = agent_secret_service(error);
    if (service == NULL) return FALSE;
    GHashTable *attributes = agent_secret_attributes(profile);
    SecretValue *value = secret_value_new(password, -1, "text/plain");
    gboolean stored = secret_service_store_sync(service, agent_secret_schema(), attributes, SECRET_COLLECTION_DEFAULT,
                                                label, value, NULL, error);
    secret_value_unref(value);
    g_hash_table_unref(attributes);
    g_object_unref(service);
    return stored;
}

/* The stored password (free with g_free), or NULL with or without an error. */
static inline char *agent_secret_lookup(const char *profile, GError **error) {
    SecretService *service = agent_secret_service(error);
    if (service == NULL) return NULL;
    GHashTable *attributes = agent_secret_attributes(profile);
    SecretValue *value = secret_service_lookup_sync(service, agent_secret_schema(), attributes, NULL, error);
    g_hash_table_unref(attributes);
    g_object_unref(service);
    if (value == NULL) return NULL;
    char *password = g_strdup(secret_value_get_text(value));
    secret_value_unref(value);
    return password;
}

static inline gboolean agent_secret_clear(const char *profile, GError **error) {
    SecretService *service = agent_secret_service(error);
    if (service == NULL) return FALSE;
    GHashTable *attributes = agent_secret_attributes(profile);
    gboolean cleared = secret_service_clear_sync(service, agent_secret_schema(), attributes, NULL, error);
    g_hash_table_unref(attributes);
    g_object_unref(service);
    return cleared;
}

#endif
