# Records every value the kernel drives on a GPIO line (the gpio_value trace event), sourced.
# shellcheck shell=bash
#
# gpio-sim puts a released line back to its pull, so reading `value` after the appliance
# exits cannot tell whether it switched its outputs off. The kernel's gpio_value trace
# event records every value a consumer drives, so the last one per line can.

TRACEFS=/sys/kernel/tracing
GPIO_BASE=""

# Starts tracing gpio_value and finds the global number base of the gpio-sim chip.
gpio_trace_start() {
    local label=$1 chip
    mountpoint -q "$TRACEFS" || mount -t tracefs tracefs "$TRACEFS" \
        || { fail "gpio trace" "cannot mount tracefs"; return 1; }
    for chip in /sys/class/gpio/gpiochip*; do
        [ "$(cat "$chip/label" 2>/dev/null)" = "$label" ] && GPIO_BASE=$(cat "$chip/base")
    done
    [ -n "$GPIO_BASE" ] || { fail "gpio trace" "no /sys/class/gpio chip labelled $label"; return 1; }
    echo 4096 > "$TRACEFS/buffer_size_kb"
    : > "$TRACEFS/trace"
    echo 1 > "$TRACEFS/events/gpio/gpio_value/enable" \
        || { fail "gpio trace" "cannot enable the gpio_value trace event"; return 1; }
    echo 1 > "$TRACEFS/tracing_on"
}

# The values driven on a line (by its name, GPIOn), oldest first, one per line ("1", "0").
gpio_trace_values() {
    local number=$(( GPIO_BASE + ${GPIOSIM_OFFSET[$1]} ))
    grep -E "gpio_value: $number set [01]" "$TRACEFS/trace" | sed -E 's/.* set ([01]).*/\1/'
}
