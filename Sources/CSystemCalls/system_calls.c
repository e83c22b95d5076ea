// Linux calls that Swift's Glibc module does not import (they need _GNU_SOURCE), and the sync counters.
#define _GNU_SOURCE
#include "system_calls.h"

#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdio.h>
#include <sys/resource.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#ifdef __linux__
#include <sys/vfs.h>
#endif

int pinhole_rename_noreplace(const char *from, const char *to) {
#ifdef RENAME_NOREPLACE
    return renameat2(AT_FDCWD, from, AT_FDCWD, to, RENAME_NOREPLACE);
#else
    errno = ENOSYS;
    return -1;
#endif
}

static _Atomic unsigned long long sync_counts[PINHOLE_SYNC_KINDS];

void pinhole_sync_counted(int kind) {
    if (kind >= 0 && kind < PINHOLE_SYNC_KINDS) {
        atomic_fetch_add_explicit(&sync_counts[kind], 1, memory_order_relaxed);
    }
}

unsigned long long pinhole_sync_count(int kind) {
    if (kind < 0 || kind >= PINHOLE_SYNC_KINDS) return 0;
    return atomic_load_explicit(&sync_counts[kind], memory_order_relaxed);
}

long pinhole_file_system_type(int fd) {
#ifdef __linux__
    struct statfs info;
    if (fstatfs(fd, &info) != 0) return 0;
    return (long)info.f_type;
#else
    (void)fd;
    return 0;
#endif
}

int pinhole_malloc_arena_max(int arenas) {
#ifdef M_ARENA_MAX
    return mallopt(M_ARENA_MAX, arenas);
#else
    (void)arenas;
    return 0;
#endif
}

int pinhole_set_thread_niceness(int niceness) {
    return setpriority(PRIO_PROCESS, 0, niceness) == 0 ? 0 : errno;
}

int pinhole_thread_niceness(void) {
    errno = 0;
    return getpriority(PRIO_PROCESS, 0);
}
