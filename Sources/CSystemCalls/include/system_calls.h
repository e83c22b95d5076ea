// Linux calls that Swift's Glibc module does not import (they need _GNU_SOURCE).
#ifndef PINHOLE_SYSTEM_CALLS_H
#define PINHOLE_SYSTEM_CALLS_H

/// renameat2(AT_FDCWD, from, AT_FDCWD, to, RENAME_NOREPLACE): fails with EEXIST when `to`
/// exists, atomically. Returns 0, or -1 with errno set (EINVAL or ENOSYS where the file system
/// or kernel cannot do it).
int pinhole_rename_noreplace(const char *from, const char *to);

#endif
