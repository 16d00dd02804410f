/* SQLite for the core's storage; SQLITE_TRANSIENT is a macro Swift cannot import. */
#ifndef AGENT_CSQLITE_SHIM_H
#define AGENT_CSQLITE_SHIM_H

#include <sqlite3.h>

static inline sqlite3_destructor_type agent_sqlite_transient(void) {
    return SQLITE_TRANSIENT;
}

#endif
