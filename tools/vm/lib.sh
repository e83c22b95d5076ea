# Shared helpers for the VM integration test scripts (sourced, not run).
# shellcheck shell=bash

# Prints a progress message from the calling script.
log() { printf '%s: %s\n' "${HIL_TOOL:-vm}" "$*" >&2; }

# Prints an error that names the failed step and what to do, then exits.
die() { printf '%s: error: %s\n' "${HIL_TOOL:-vm}" "$*" >&2; exit 1; }

# The repository root (the directory holding Package.swift).
repo_root() { (cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd); }

# The cache for downloads, built modules and images, shared between runs.
vm_cache_dir() { printf '%s/pinhole/vm\n' "${XDG_CACHE_HOME:-$HOME/.cache}"; }

# The kernel version the VM boots: the one linux-image-amd64 points at (as tools/setup
# installs it), or PINHOLE_VM_KVER when set. Never hard-coded.
resolve_kernel_version() {
    if [ -n "${PINHOLE_VM_KVER:-}" ]; then
        printf '%s\n' "$PINHOLE_VM_KVER"
        return
    fi
    local kver
    kver=$(apt-cache depends linux-image-amd64 2>/dev/null \
        | awk '/Depends: linux-image-[0-9]/ { sub("linux-image-", "", $2); print $2; exit }')
    [ -n "$kver" ] || return 1
    printf '%s\n' "$kver"
}

# The "major.minor" of a kernel version, which names its linux-source package.
kernel_series() { printf '%s\n' "$1" | sed -E 's/^([0-9]+\.[0-9]+).*/\1/'; }
