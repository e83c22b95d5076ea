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

# Compares what a guest scenario reported with what the harness declared, and prints one
# line per check that did not pass: DECLARED lists the expected check names (one a line;
# blank lines and `#` comments skipped), CHECKS holds the guest's "STATUS<TAB>NAME" lines
# (hil-lib.sh's hil_check). A declared check that reported nothing "did not run"; a pending
# one did not run either; a name reported twice, or reported and not declared, is a fault
# of the scenario or of the declaration. Sets CHECKS_DECLARED and CHECKS_OK; returns 1
# unless every declared check reported ok exactly once and no check failed.
verify_checks() {
    local declared=$1 checks=$2 prefix=${3:-hil: } verdict
    [ -f "$checks" ] || : > "$checks"
    verdict=$(awk -F '\t' -v prefix="$prefix" -v declared_file="$declared" '
        NR == FNR {
            if ($0 ~ /^[ \t]*(#|$)/) next
            if (!($0 in want)) order[++n] = $0
            want[$0] = 1
            next
        }
        {
            count[$2]++
            if ($1 == "FAIL" || status[$2] == "FAIL") status[$2] = "FAIL"
            else if ($1 == "pending" || status[$2] == "pending") status[$2] = "pending"
            else status[$2] = $1
            if (!($2 in want) && !($2 in extra)) { extra[$2] = 1; extras[++m] = $2 }
        }
        END {
            ok = 0
            for (i = 1; i <= n; i++) {
                name = order[i]
                if (!(name in count)) printf "%sFAIL %s: did not run (declared in %s)\n", prefix, name, declared_file
                else if (status[name] == "pending") printf "%sFAIL %s: did not run (reported pending)\n", prefix, name
                else if (status[name] == "ok" && count[name] > 1) printf "%sFAIL %s: reported %d times\n", prefix, name, count[name]
                else if (status[name] == "ok") ok++
            }
            failed = 0
            for (name in status) if (status[name] == "FAIL") failed++
            for (i = 1; i <= m; i++)
                if (status[extras[i]] != "FAIL")
                    printf "%sFAIL %s: reported %s but not declared in %s\n", prefix, extras[i], status[extras[i]], declared_file
            printf "SUMMARY %d %d %d\n", n, ok, failed
        }' "$declared" "$checks") || return 1
    printf '%s\n' "$verdict" | grep -v '^SUMMARY ' || true
    read -r _ CHECKS_DECLARED CHECKS_OK CHECKS_FAILED <<<"$(grep '^SUMMARY ' <<<"$verdict")"
    [ "$CHECKS_OK" -eq "$CHECKS_DECLARED" ] && [ "$CHECKS_FAILED" -eq 0 ] \
        && ! grep -q -v '^SUMMARY ' <<<"$verdict"
}
