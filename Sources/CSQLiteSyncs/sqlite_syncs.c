// A SQLite VFS that forwards everything to the default one and counts SQLite's sync calls.
#include "sqlite_syncs.h"

#include <pthread.h>
#include <sqlite3.h>
#include <stddef.h>

#include "system_calls.h"

/// A file of the counting VFS: the counting header, then the real VFS's file.
typedef struct CountingFile {
    sqlite3_file base;
    sqlite3_file *real;
    int kind;             /* PINHOLE_SYNC_SQLITE_LOG, _DATABASE or _OTHER */
    int directoryPending; /* the unix VFS syncs the directory at this file's first sync */
} CountingFile;

static sqlite3_vfs counting_vfs;
static sqlite3_vfs *real_vfs;
static int install_result = SQLITE_ERROR;
static pthread_once_t install_once = PTHREAD_ONCE_INIT;

#define REAL(file) (((CountingFile *)(file))->real)

static int counting_close(sqlite3_file *file) {
    sqlite3_file *real = REAL(file);
    int rc = real->pMethods ? real->pMethods->xClose(real) : SQLITE_OK;
    file->pMethods = 0;
    return rc;
}

static int counting_read(sqlite3_file *file, void *buffer, int amount, sqlite3_int64 offset) {
    return REAL(file)->pMethods->xRead(REAL(file), buffer, amount, offset);
}

static int counting_write(sqlite3_file *file, const void *buffer, int amount, sqlite3_int64 offset) {
    return REAL(file)->pMethods->xWrite(REAL(file), buffer, amount, offset);
}

static int counting_truncate(sqlite3_file *file, sqlite3_int64 size) {
    return REAL(file)->pMethods->xTruncate(REAL(file), size);
}

static int counting_sync(sqlite3_file *file, int flags) {
    CountingFile *counting = (CountingFile *)file;
    pinhole_sync_counted(counting->kind);
    if (counting->directoryPending) {
        counting->directoryPending = 0;
        pinhole_sync_counted(PINHOLE_SYNC_DIRECTORY);
    }
    return counting->real->pMethods->xSync(counting->real, flags);
}

static int counting_file_size(sqlite3_file *file, sqlite3_int64 *size) {
    return REAL(file)->pMethods->xFileSize(REAL(file), size);
}

static int counting_lock(sqlite3_file *file, int lock) {
    return REAL(file)->pMethods->xLock(REAL(file), lock);
}

static int counting_unlock(sqlite3_file *file, int lock) {
    return REAL(file)->pMethods->xUnlock(REAL(file), lock);
}

static int counting_check_reserved_lock(sqlite3_file *file, int *result) {
    return REAL(file)->pMethods->xCheckReservedLock(REAL(file), result);
}

static int counting_file_control(sqlite3_file *file, int op, void *argument) {
    return REAL(file)->pMethods->xFileControl(REAL(file), op, argument);
}

static int counting_sector_size(sqlite3_file *file) {
    return REAL(file)->pMethods->xSectorSize(REAL(file));
}

static int counting_device_characteristics(sqlite3_file *file) {
    return REAL(file)->pMethods->xDeviceCharacteristics(REAL(file));
}

static int counting_shm_map(sqlite3_file *file, int page, int size, int extend, void volatile **map) {
    sqlite3_file *real = REAL(file);
    if (real->pMethods->iVersion < 2 || !real->pMethods->xShmMap) return SQLITE_IOERR_SHMMAP;
    return real->pMethods->xShmMap(real, page, size, extend, map);
}

static int counting_shm_lock(sqlite3_file *file, int offset, int count, int flags) {
    sqlite3_file *real = REAL(file);
    if (real->pMethods->iVersion < 2 || !real->pMethods->xShmLock) return SQLITE_IOERR_SHMLOCK;
    return real->pMethods->xShmLock(real, offset, count, flags);
}

static void counting_shm_barrier(sqlite3_file *file) {
    sqlite3_file *real = REAL(file);
    if (real->pMethods->iVersion >= 2 && real->pMethods->xShmBarrier) real->pMethods->xShmBarrier(real);
}

static int counting_shm_unmap(sqlite3_file *file, int deleteFlag) {
    sqlite3_file *real = REAL(file);
    if (real->pMethods->iVersion < 2 || !real->pMethods->xShmUnmap) return SQLITE_OK;
    return real->pMethods->xShmUnmap(real, deleteFlag);
}

static int counting_fetch(sqlite3_file *file, sqlite3_int64 offset, int amount, void **pointer) {
    sqlite3_file *real = REAL(file);
    if (real->pMethods->iVersion < 3 || !real->pMethods->xFetch) {
        *pointer = 0;
        return SQLITE_OK;
    }
    return real->pMethods->xFetch(real, offset, amount, pointer);
}

static int counting_unfetch(sqlite3_file *file, sqlite3_int64 offset, void *pointer) {
    sqlite3_file *real = REAL(file);
    if (real->pMethods->iVersion < 3 || !real->pMethods->xUnfetch) return SQLITE_OK;
    return real->pMethods->xUnfetch(real, offset, pointer);
}

static const sqlite3_io_methods counting_methods = {
    3,
    counting_close,
    counting_read,
    counting_write,
    counting_truncate,
    counting_sync,
    counting_file_size,
    counting_lock,
    counting_unlock,
    counting_check_reserved_lock,
    counting_file_control,
    counting_sector_size,
    counting_device_characteristics,
    counting_shm_map,
    counting_shm_lock,
    counting_shm_barrier,
    counting_shm_unmap,
    counting_fetch,
    counting_unfetch,
};

static int counting_open(sqlite3_vfs *vfs, const char *name, sqlite3_file *file, int flags, int *outFlags) {
    (void)vfs;
    CountingFile *counting = (CountingFile *)file;
    counting->real = (sqlite3_file *)&counting[1];
    int type = flags & 0x0FFF00; /* SQLITE_OPEN_MAIN_DB … SQLITE_OPEN_WAL */
    counting->kind = type == SQLITE_OPEN_WAL       ? PINHOLE_SYNC_SQLITE_LOG
                     : type == SQLITE_OPEN_MAIN_DB ? PINHOLE_SYNC_SQLITE_DATABASE
                                                   : PINHOLE_SYNC_SQLITE_OTHER;
    /* The unix VFS fsyncs the directory at the first sync of a log or journal it may have created. */
    counting->directoryPending =
        (flags & SQLITE_OPEN_CREATE) != 0
        && (type == SQLITE_OPEN_WAL || type == SQLITE_OPEN_MAIN_JOURNAL || type == SQLITE_OPEN_SUPER_JOURNAL);
    int rc = real_vfs->xOpen(real_vfs, name, counting->real, flags, outFlags);
    file->pMethods = counting->real->pMethods ? &counting_methods : 0;
    return rc;
}

static int counting_delete(sqlite3_vfs *vfs, const char *name, int syncDirectory) {
    (void)vfs;
    if (syncDirectory) pinhole_sync_counted(PINHOLE_SYNC_DIRECTORY);
    return real_vfs->xDelete(real_vfs, name, syncDirectory);
}

static int counting_access(sqlite3_vfs *vfs, const char *name, int flags, int *result) {
    (void)vfs;
    return real_vfs->xAccess(real_vfs, name, flags, result);
}

static int counting_full_pathname(sqlite3_vfs *vfs, const char *name, int size, char *out) {
    (void)vfs;
    return real_vfs->xFullPathname(real_vfs, name, size, out);
}

static void install(void) {
    real_vfs = sqlite3_vfs_find(0);
    if (!real_vfs) return;
    counting_vfs = *real_vfs;
    counting_vfs.pNext = 0;
    counting_vfs.zName = "pinhole-counting";
    counting_vfs.szOsFile = (int)sizeof(CountingFile) + real_vfs->szOsFile;
    counting_vfs.xOpen = counting_open;
    counting_vfs.xDelete = counting_delete;
    counting_vfs.xAccess = counting_access;
    counting_vfs.xFullPathname = counting_full_pathname;
    install_result = sqlite3_vfs_register(&counting_vfs, 1);
}

int pinhole_sqlite_count_syncs(void) {
    pthread_once(&install_once, install);
    return install_result;
}
