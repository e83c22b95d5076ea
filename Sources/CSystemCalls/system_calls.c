// Linux calls that Swift's Glibc module does not import (they need _GNU_SOURCE).
#define _GNU_SOURCE
#include "system_calls.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>

int pinhole_rename_noreplace(const char *from, const char *to) {
#ifdef RENAME_NOREPLACE
    return renameat2(AT_FDCWD, from, AT_FDCWD, to, RENAME_NOREPLACE);
#else
    errno = ENOSYS;
    return -1;
#endif
}
