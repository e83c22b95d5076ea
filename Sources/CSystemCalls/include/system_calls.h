// Linux calls that Swift's Glibc module does not import (they need _GNU_SOURCE), and the sync counters.
#ifndef PINHOLE_SYSTEM_CALLS_H
#define PINHOLE_SYSTEM_CALLS_H

/// renameat2(AT_FDCWD, from, AT_FDCWD, to, RENAME_NOREPLACE): fails with EEXIST when `to`
/// exists, atomically. Returns 0, or -1 with errno set (EINVAL or ENOSYS where the file system
/// or kernel cannot do it).
int pinhole_rename_noreplace(const char *from, const char *to);

/// What a counted sync call made durable (the kinds of `pinhole_sync_counted`).
#define PINHOLE_SYNC_FILE 0            /* fsync of a file Pinhole wrote */
#define PINHOLE_SYNC_DIRECTORY 1       /* fsync of a directory (Pinhole's, or SQLite's after creating its log) */
#define PINHOLE_SYNC_SQLITE_LOG 2      /* SQLite syncing its write-ahead log (a commit; before a checkpoint) */
#define PINHOLE_SYNC_SQLITE_DATABASE 3 /* SQLite syncing the database file (a checkpoint) */
#define PINHOLE_SYNC_SQLITE_OTHER 4    /* SQLite syncing a rollback journal or another file */
#define PINHOLE_SYNC_KINDS 5

/// Counts one fsync/fdatasync call of `kind` (process-wide, atomic). Called by the POSIX layer
/// just before each sync call it makes, and by the SQLite VFS that counts SQLite's.
void pinhole_sync_counted(int kind);

/// The number of sync calls of `kind` counted since the process started.
unsigned long long pinhole_sync_count(int kind);

/// The file system type (`statfs`'s f_type) of the file open as `fd`, or 0 when it cannot be read.
long pinhole_file_system_type(int fd);

/// Limits the C library's malloc to `arenas` arenas for all threads (glibc's
/// mallopt(M_ARENA_MAX)); returns 1 when done, 0 where the C library has no such setting.
int pinhole_malloc_arena_max(int arenas);

/// Sets the calling thread's nice value (Linux keeps one per thread: setpriority with
/// PRIO_PROCESS and 0); threads it starts afterwards inherit it. 0 when done, else the errno
/// (EPERM or EACCES: below the process's RLIMIT_NICE without CAP_SYS_NICE).
int pinhole_set_thread_niceness(int niceness);

/// The calling thread's nice value.
int pinhole_thread_niceness(void);

#endif
