# Driver-level checks in the guest: gpio-sim through the libgpiod tools, vimc through libcamera (sourced).
# shellcheck shell=bash

# gpioinfo finds the Pi-named lines on the simulated chip.
check_gpioinfo() {
    local out
    out=$(gpioinfo -c "$GPIOSIM_CHIP" 2>&1) || { fail "gpioinfo" "gpioinfo -c $GPIOSIM_CHIP failed: $out"; return 1; }
    local line
    for line in GPIO5 GPIO17 GPIO22 GPIO23 GPIO24 GPIO25 GPIO26 GPIO27; do
        grep -q "\"$line\"" <<<"$out" || { fail "gpioinfo" "line $line not listed on $GPIOSIM_CHIP"; return 1; }
    done
    ok "gpioinfo" "lists GPIO5 GPIO17 GPIO22 GPIO23..GPIO27 on $GPIOSIM_CHIP"
}

# gpioget reads an input as the simulator drives it (with the pull-up an active-low button has).
check_gpioget() {
    local value
    gpiosim_drive GPIO17 low
    value=$(gpioget --numeric -b pull-up GPIO17 2>&1)
    # Requesting with pull-up makes gpio-sim pull the line up: drive it low again, then read.
    gpiosim_drive GPIO17 low
    value=$(gpioget --numeric --as-is GPIO17 2>&1) || { fail "gpioget" "gpioget GPIO17 failed: $value"; return 1; }
    [ "$value" = 0 ] || { fail "gpioget" "GPIO17 driven low read '$value', expected 0"; return 1; }
    gpiosim_drive GPIO17 high
    value=$(gpioget --numeric --as-is GPIO17 2>&1)
    [ "$value" = 1 ] || { fail "gpioget" "GPIO17 driven high read '$value', expected 1"; return 1; }
    ok "gpioget" "reads GPIO17 low then high as gpio-sim drives it"
}

# gpioset drives an output and gpio-sim reads it back while the line is held.
check_gpioset() {
    local pid level_on level_off
    gpioset -c "$GPIOSIM_CHIP" GPIO24=1 &
    pid=$!
    wait_until 3000 gpiosim_level_is GPIO24 1
    level_on=$(gpiosim_level GPIO24)
    kill "$pid"; wait "$pid" 2>/dev/null
    gpioset -c "$GPIOSIM_CHIP" GPIO24=0 &
    pid=$!
    wait_until 3000 gpiosim_level_is GPIO24 0
    level_off=$(gpiosim_level GPIO24)
    kill "$pid"; wait "$pid" 2>/dev/null
    [ "$level_on" = 1 ] && [ "$level_off" = 0 ] \
        || { fail "gpioset" "GPIO24 read back $level_on/$level_off from gpio-sim, expected 1/0"; return 1; }
    ok "gpioset" "drives GPIO24 and gpio-sim reads 1 then 0"
}

# gpiomon sees both edges of a bouncy press with kernel timestamps.
check_gpiomon() {
    local events=/tmp/gpiomon.txt pid count
    gpiosim_drive GPIO17 high
    gpiomon -c "$GPIOSIM_CHIP" -b pull-up -e both --format='%e %S' GPIO17 > "$events" 2>&1 &
    pid=$!
    nap 0.5
    gpiosim_press_with_bounce GPIO17
    nap 0.2
    gpiosim_release_with_bounce GPIO17
    nap 0.5
    kill "$pid"; wait "$pid" 2>/dev/null
    count=$(wc -l < "$events")
    [ "$count" -ge 2 ] || { fail "gpiomon" "only $count edges seen on GPIO17 (expected at least 2): $(tr '\n' ';' < "$events")"; return 1; }
    ok "gpiomon" "saw $count edges for a bouncy press and release of GPIO17 (no debounce)"
}

# libcamera lists the vimc camera (needs udev to have run).
check_cam_list() {
    local out
    out=$(LIBCAMERA_LOG_LEVELS='*:ERROR' cam -l 2>&1) || { fail "cam -l" "cam -l failed: $out"; return 1; }
    grep -q 'vimc' <<<"$out" || { fail "cam -l" "no vimc camera listed: $(tr '\n' ';' <<<"$out")"; return 1; }
    HIL_CAMERA_LINE=$(grep -m1 'vimc' <<<"$out" | sed 's/^ *//')
    ok "cam -l" "lists the vimc camera: $HIL_CAMERA_LINE"
}

# libcamera streams frames from vimc. Observed here: `cam -C1` (a single request) never
# completed within 60 s on vimc while `-C4` finishes in about a second, so four are asked.
check_cam_capture() {
    local out size
    rm -f /tmp/hil-frame*
    out=$(LIBCAMERA_LOG_LEVELS='*:ERROR' timeout 60 cam -c 1 -C4 -s role=viewfinder,width=640,height=480 \
        -F/tmp/hil-frame.bin 2>&1) || { fail "cam capture" "cam -C4 failed: $(tr '\n' ';' <<<"$out" | cut -c1-300)"; return 1; }
    size=$(stat -c %s /tmp/hil-frame.bin 2>/dev/null || echo 0)
    [ "$size" -gt 0 ] || { fail "cam capture" "no frame written: $(tr '\n' ';' <<<"$out")"; return 1; }
    ok "cam capture" "4 frames of 640x480 from vimc ($size bytes)"
}

run_driver_checks() {
    check_gpioinfo
    check_gpioget
    check_gpioset
    check_gpiomon
    check_cam_list
    check_cam_capture
}

# Runs `pinhole-conformance KIND` (built next to pinhole) and reports its ok and FAIL lines as
# checks; a time limit of 0 means none.
run_pinhole_conformance() {
    local pinhole=$1 kind=$2 limit=$3 out status line conformance
    conformance="$(dirname "$pinhole")/pinhole-conformance"
    [ -x "$conformance" ] || { fail "pinhole $kind" "$conformance is missing (swift build failed?)"; return 1; }
    out=$(timeout "$limit" "$conformance" "$kind" 2>&1)
    status=$?
    # Each step's line is "ok NAME: TEXT" or "FAIL NAME: WHY" (NAME as in tools/vm/guest/hil.checks).
    while IFS= read -r line; do
        case "$line" in
            ok\ *:\ *) line=${line#ok }; ok "${line%%: *}" "${line#*: }" ;;
            FAIL\ *:\ *) line=${line#FAIL }; fail "${line%%: *}" "${line#*: }" ;;
            *) note "$line" ;;
        esac
    done <<<"$out"
    [ "$status" -eq 0 ] || { fail "pinhole $kind" "pinhole-conformance $kind exited with $status"; return 1; }
}

# Pinhole's libgpiod backend against gpio-sim (`pinhole-conformance gpio`, the GPIO contract suite).
check_pinhole_gpio() {
    run_pinhole_conformance "$1" gpio 0
}

# The unit tests' gpio-sim conformance test (GPIOBackendTests), when the bundle was built.
check_gpio_unit_tests() {
    local bundle=$1 out
    [ -n "$bundle" ] || { fail "GPIOBackendTests in the guest" "no unit-test bundle (tools/hil builds it; with --no-build run swift build --build-tests first)"; return 1; }
    if out=$("$bundle" PinholeLinuxTests.GPIOBackendTests 2>&1); then
        if grep -q 'skipped' <<<"$(grep testConformanceAgainstGPIOSimWhenPresent <<<"$out")"; then
            fail "GPIOBackendTests in the guest" "the gpio-sim conformance test skipped itself in the guest"
            return 1
        fi
        ok "GPIOBackendTests in the guest" "$(grep -m1 -oE 'Executed [0-9]+ tests?, with ([0-9]+ tests? skipped and )?0 failures' <<<"$out" \
            || echo 'passed') (GPIOBackendTests from $(basename "$bundle"), in the guest)"
    else
        fail "GPIOBackendTests in the guest" "$(grep -E 'error|failed' <<<"$out" | head -n 3 | tr '\n' ' ')"
    fi
}

# Pinhole's libcamera backend against vimc (`pinhole-conformance camera`, the camera contract suite).
check_pinhole_camera() {
    LIBCAMERA_LOG_LEVELS='*:ERROR' run_pinhole_conformance "$1" camera 180
}
