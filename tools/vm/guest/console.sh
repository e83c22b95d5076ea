# The guest's side of the console test: lines typed by the host's console-proxy (sourced).
# shellcheck shell=bash
#
# The appliance's console is on ttyS1, whose other end is tools/vm/console-proxy on the
# host: it logs every line the appliance writes to /run/hil/console.log and types the
# lines the scenario leaves in /run/hil/console-in/NNNN.cmd.

CONSOLE_LOG=/run/hil/console.log
CONSOLE_INBOX=/run/hil/console-in
CONSOLE_SEQ=0

# The number of complete lines the appliance has written so far.
console_mark() {
    if [ -f "$CONSOLE_LOG" ]; then wc -l < "$CONSOLE_LOG"; else echo 0; fi
}

# Has the host type LINE on the console.
console_send() {
    CONSOLE_SEQ=$((CONSOLE_SEQ + 1))
    local name
    name=$(printf '%s/%04d' "$CONSOLE_INBOX" "$CONSOLE_SEQ")
    mkdir -p "$CONSOLE_INBOX"
    printf '%s\n' "$1" > "$name.tmp"
    mv "$name.tmp" "$name.cmd"
}

# The console log from line MARK on, each line cut after its last VT100 control sequence
# (so that an answer printed after screen updates still starts its line; whether line
# mode is clean is checked separately by console_escape_lines).
console_text_since() {
    tail -n +"$(($1 + 1))" "$CONSOLE_LOG" 2>/dev/null | sed -E $'s/.*\x1b\\[[0-9;?]*[A-Za-z]//'
}

# The number of lines of the console log that carry escape sequences.
console_escape_lines() {
    grep -c $'\x1b' "$CONSOLE_LOG" 2>/dev/null || true
}

# Prints the first line after line MARK matching the extended regex, waiting up to
# TIMEOUT_MS; fails if none comes: console_expect MARK REGEX TIMEOUT_MS
console_expect() {
    local mark=$1 regex=$2 timeout_ms=$3
    local deadline=$(( $(uptime_ms) + timeout_ms )) match
    while true; do
        match=$(console_text_since "$mark" | grep -m1 -E -- "$regex")
        if [ -n "$match" ]; then
            printf '%s\n' "$match"
            return 0
        fi
        [ "$(uptime_ms)" -lt "$deadline" ] || return 1
        nap 0.2
    done
}

# Types COMMAND and prints the appliance's answer (the first line after it that is not an
# `event …` line): console_ask COMMAND TIMEOUT_MS
console_ask() {
    local mark
    mark=$(console_mark)
    console_send "$1"
    console_expect "$mark" '^(ok|error|\{|\[)' "$2"
}

# The lines the appliance wrote since MARK.
console_since() {
    tail -n +"$(($1 + 1))" "$CONSOLE_LOG" 2>/dev/null
}
