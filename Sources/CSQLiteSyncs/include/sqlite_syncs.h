// A SQLite VFS that forwards everything to the default one and counts SQLite's sync calls.
#ifndef PINHOLE_SQLITE_SYNCS_H
#define PINHOLE_SQLITE_SYNCS_H

/// Registers, once per process, a VFS named "pinhole-counting" as SQLite's default: it forwards
/// every call to the VFS that was the default before (unix) and counts each of SQLite's sync
/// calls with `pinhole_sync_counted` (log, database, other; plus the directory sync the unix VFS
/// makes after creating a log or journal). Connections opened afterwards use it. Returns
/// SQLITE_OK (0) or SQLite's error code. Safe to call from several threads.
int pinhole_sqlite_count_syncs(void);

#endif
