/* libsecret (the Secret Service: GNOME Keyring, KWallet): API keys, stored per server
 * profile. The attribute tables libsecret's "v" calls take are built here. */
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

static inline gboolean agent_secret_store(const char *profile, const char *label, const char *password,
                                          GCancellable *cancellable, GError **error) {
    GHashTable *attributes = agent_secret_attributes(profile);
    gboolean stored = secret_password_storev_sync(agent_secret_schema(), attributes, SECRET_COLLECTION_DEFAULT,
                                                  label, password, cancellable, error);
    g_hash_table_unref(attributes);
    return stored;
}

/* The stored password (free with secret_password_free), or NULL with or without an error. */
static inline char *agent_secret_lookup(const char *profile, GCancellable *cancellable, GError **error) {
    GHashTable *attributes = agent_secret_attributes(profile);
    char *password = secret_password_lookupv_sync(agent_secret_schema(), attributes, cancellable, error);
    g_hash_table_unref(attributes);
    return password;
}

static inline gboolean agent_secret_clear(const char *profile, GCancellable *cancellable, GError **error) {
    GHashTable *attributes = agent_secret_attributes(profile);
    gboolean cleared = secret_password_clearv_sync(agent_secret_schema(), attributes, cancellable, error);
    g_hash_table_unref(attributes);
    return cleared;
}

#endif
