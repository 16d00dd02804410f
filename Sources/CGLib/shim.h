/* GLib and GIO for the platform-neutral core: D-Bus (GeoClue), GSettings, key files.
 * Portable C libraries, no toolkit. */
#ifndef AGENT_CGLIB_SHIM_H
#define AGENT_CGLIB_SHIM_H

#include <gio/gio.h>
#define G_SETTINGS_ENABLE_BACKEND
#include <gio/gsettingsbackend.h>

/* (s) and (ssv)-style tuples without g_variant_new's varargs. */
static inline GVariant *agent_variant_tuple1(GVariant *only) {
    return g_variant_new_tuple(&only, 1);
}

static inline GVariant *agent_variant_tuple3(GVariant *first, GVariant *second, GVariant *third) {
    GVariant *children[3] = { first, second, third };
    return g_variant_new_tuple(children, 3);
}

/* Whether `value` (floating; consumed) is of the type and in the range or choices of
 * `key` in the schema of `settings`: GSettings refuses other values with a critical. */
static inline gboolean agent_settings_value_fits(GSettings *settings, const char *key, GVariant *value) {
    g_variant_ref_sink(value);
    GSettingsSchema *schema = NULL;
    g_object_get(settings, "settings-schema", &schema, NULL);
    gboolean fits = FALSE;
    if (schema != NULL && g_settings_schema_has_key(schema, key)) {
        GSettingsSchemaKey *schema_key = g_settings_schema_get_key(schema, key);
        fits = g_variant_is_of_type(value, g_settings_schema_key_get_value_type(schema_key))
               && g_settings_schema_key_range_check(schema_key, value);
        g_settings_schema_key_unref(schema_key);
    }
    if (schema != NULL) g_settings_schema_unref(schema);
    g_variant_unref(value);
    return fits;
}

#endif
