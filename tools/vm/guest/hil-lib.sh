# Reporting and gpio-sim helpers for scenarios running inside the VM guest (sourced).
# shellcheck shell=bash
#
# Every check has a name (the harness declares the names it expects in
# tools/vm/guest/NAME.checks) and prints one line to the guest log and the report:
#   hil: ok <check>: <what>          the check passed
#   hil: FAIL <check>: <why>         the check failed (the scenario's status becomes 1)
#   hil: pending <check>: <why>      the check could not run (the harness fails it too)
# and one "STATUS<TAB>CHECK" line to /run/hil/checks, which the host compares with the
# declared names: a declared check that reported nothing did not run, and the run fails.

HIL_REPORT=/run/hil/report
HIL_CHECKS=/run/hil/checks
HIL_FAILED=0
# Put before the check's name on the report line (the service scenario names its user).
HIL_CHECK_PREFIX=""
# gpio-sim state, filled in by gpiosim_create.
GPIOSIM_CHIP=""       # e.g. gpiochip0
GPIOSIM_SYSFS=""      # /sys/devices/platform/gpio-sim.N/gpiochipM
declare -A GPIOSIM_OFFSET=()

hil_report() {
    local up
    read -r up _ < /proc/uptime
    printf 'hil: %s\n' "$*" >> "$HIL_REPORT"
    printf '[%7ss] hil: %s\n' "$up" "$*"
}
# Records one check's result: hil_check ok|FAIL|pending NAME TEXT...
hil_check() {
    local status=$1 name=$2
    shift 2
    printf '%s\t%s\n' "$status" "$name" >> "$HIL_CHECKS"
    hil_report "$status $HIL_CHECK_PREFIX$name: $*"
}
ok() { hil_check ok "$1" "${*:2}"; }
fail() { HIL_FAILED=1; hil_check FAIL "$1" "${*:2}"; }
pending() { hil_check pending "$1" "${*:2}"; }
note() { printf 'hil:   %s\n' "$*"; }

# The time since boot in milliseconds (for waits that must not depend on `date`).
uptime_ms() {
    local up
    read -r up _ < /proc/uptime
    printf '%s\n' "$(( ${up%.*} * 1000 + 10#${up#*.} * 10 ))"
}

# Sleeps without forking (a fork costs milliseconds of the guest's one emulated CPU).
[ -p /tmp/hil-nap ] || mkfifo /tmp/hil-nap
exec {HIL_NAP_FD}<>/tmp/hil-nap
nap() {
    read -r -t "$1" -u "$HIL_NAP_FD" _ || true
}

# Runs a command until it succeeds or TIMEOUT_MS passes: wait_until 5000 cmd args...
# The command is run again each time: pass a function, not "$(…)" (expanded only once).
wait_until() {
    local timeout_ms=$1
    shift
    local deadline=$(( $(uptime_ms) + timeout_ms ))
    until "$@"; do
        [ "$(uptime_ms)" -lt "$deadline" ] || return 1
        nap 0.2
    done
}

# Loads the kernel modules the drivers depend on from /lib/modules, then the out-of-tree
# drivers from MODULE_DIR.
load_modules() {
    local dir=$1 module deps
    for module in irq_sim gpio-sim vimc; do
        [ -f "$dir/$module.ko" ] || { fail "kernel modules" "$dir/$module.ko is missing (run tools/vm/build-modules)"; return 1; }
        deps=$(modinfo -F depends "$dir/$module.ko" | tr ',' ' ')
        for dep in $deps; do
            [ "$dep" = irq_sim ] && continue
            modprobe "$dep" || { fail "kernel modules" "modprobe $dep (needed by $module) failed"; return 1; }
        done
        insmod "$dir/$module.ko" || { fail "kernel modules" "insmod $module.ko failed (see dmesg in the guest log)"; return 1; }
    done
    ok "kernel modules" "irq_sim, gpio-sim, vimc (built out of tree for $(uname -r))"
}

# Creates a live gpio-sim chip with one bank: LINE_COUNT lines named GPIO0..GPIO<n-1>, so
# that each name matches the Raspberry Pi header's BCM numbering (GPIO17 is offset 17).
gpiosim_create() {
    local label=$1 line_count=$2 root=/sys/kernel/config/gpio-sim/pinhole i
    [ -d /sys/kernel/config/gpio-sim ] || { fail "gpio-sim" "/sys/kernel/config/gpio-sim is missing (configfs or gpio-sim not loaded)"; return 1; }
    mkdir "$root" "$root/bank0" || { fail "gpio-sim" "cannot create the configfs device"; return 1; }
    echo "$label" > "$root/bank0/label"
    echo "$line_count" > "$root/bank0/num_lines"
    for ((i = 0; i < line_count; i++)); do
        mkdir "$root/bank0/line$i"
        echo "GPIO$i" > "$root/bank0/line$i/name"
        GPIOSIM_OFFSET["GPIO$i"]=$i
    done
    echo 1 > "$root/live" || { fail "gpio-sim" "cannot set the chip live (see dmesg)"; return 1; }
    GPIOSIM_CHIP=$(cat "$root/bank0/chip_name")
    GPIOSIM_SYSFS="/sys/devices/platform/$(cat "$root/dev_name")/$GPIOSIM_CHIP"
    [ -d "$GPIOSIM_SYSFS" ] || { fail "gpio-sim" "$GPIOSIM_SYSFS is missing"; return 1; }
    ok "gpio-sim" "chip live: $GPIOSIM_CHIP labelled '$label', $line_count lines named GPIO0..GPIO$((line_count - 1))"
}

# Sets the simulated external level of an input: gpiosim_drive GPIO17 low|high.
gpiosim_drive() {
    local pull=pull-up
    [ "$2" = low ] && pull=pull-down
    echo "$pull" > "$GPIOSIM_SYSFS/sim_gpio${GPIOSIM_OFFSET[$1]}/pull"
}

# Prints the level a consumer drives on an output line (0 or 1, physical).
gpiosim_level() {
    cat "$GPIOSIM_SYSFS/sim_gpio${GPIOSIM_OFFSET[$1]}/value"
}

# Whether an output line's level is VALUE now (for wait_until): gpiosim_level_is GPIO24 1
gpiosim_level_is() {
    [ "$(gpiosim_level "$1")" = "$2" ]
}

# Simulates a bouncy press (active-low button): a few short low/high glitches, then low,
# written in one burst at real-time priority (see guest/bounce).
gpiosim_press_with_bounce() {
    chrt -f 50 "$HIL_REPO/tools/vm/guest/bounce" "$GPIOSIM_SYSFS/sim_gpio${GPIOSIM_OFFSET[$1]}/pull" press
}

# Simulates a bouncy click: press, hold HOLD_MS, release, all in one real-time process.
gpiosim_click_with_bounce() {
    chrt -f 50 "$HIL_REPO/tools/vm/guest/bounce" "$GPIOSIM_SYSFS/sim_gpio${GPIOSIM_OFFSET[$1]}/pull" click "$2"
}

# Simulates a bouncy release: glitches, then high.
gpiosim_release_with_bounce() {
    chrt -f 50 "$HIL_REPO/tools/vm/guest/bounce" "$GPIOSIM_SYSFS/sim_gpio${GPIOSIM_OFFSET[$1]}/pull" release
}

# Starts udev so that libcamera sees the media and video devices, as on a booted system.
start_udev() {
    local udevd=/lib/systemd/systemd-udevd
    [ -x "$udevd" ] || { fail "udev" "$udevd is missing (run tools/setup: installs udev)"; return 1; }
    SYSTEMD_IGNORE_CHROOT=1 "$udevd" --daemon || { fail "udev" "systemd-udevd did not start"; return 1; }
    udevadm trigger --action=add --subsystem-match=media --subsystem-match=video4linux \
        --subsystem-match=gpio --subsystem-match=tty
    # settle waits for the event queue to drain, which takes about a second; the guest's one
    # emulated CPU runs at whatever share of the host it gets, and on a loaded host (load 17
    # on 2 cores, 2026-11-26) 30 s of real time was not enough. It is a wait for an event,
    # not a measure of speed: give it 180 s.
    local started
    started=$(uptime_ms)
    udevadm settle --timeout=180 || { fail "udev" "udevadm settle timed out after 180 s"; return 1; }
    ok "udev" "started and settled in $(( ($(uptime_ms) - started) / 1000 )) s (media, video4linux, gpio, tty)"
}
