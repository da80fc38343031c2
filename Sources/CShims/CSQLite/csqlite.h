// SQLite as Debian installs it (libsqlite3-dev, found by pkg-config as sqlite3).
#include <sqlite3.h>

// SQLITE_TRANSIENT is a cast of -1 to a function pointer, a macro Swift cannot import: bound
// text and blobs are copied by SQLite before the call returns.
static inline sqlite3_destructor_type csqlite_transient(void) { return SQLITE_TRANSIENT; }
