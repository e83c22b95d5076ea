# Checks of pinhole.service under systemd: user, stop, restart after SIGKILL, watchdog, journal (sourced).
# shellcheck shell=bash
#
# Needs hil-lib.sh, console.sh, gpio-trace.sh and appliance-checks.sh (for the scenario steps),
# with ok/fail/pending and LIBRARY set by service-scenario.

SERVICE=pinhole.service
SERVICE_PID=""

main_pid() { systemctl show -p MainPID --value "$SERVICE"; }

# Whether the service is active and its process holds every line of the profile.
service_ready() {
    local line
    [ "$(systemctl is-active "$SERVICE")" = active ] || return 1
    SERVICE_PID=$(main_pid)
    [ "${SERVICE_PID:-0}" -gt 0 ] || return 1
    for line in GPIO17 GPIO27 GPIO22 "${OUTPUT_LINES[@]}"; do
        line_held_by_pinhole "$line" || return 1
    done
}

# A process other than OLD_PID is the service's main process and it is ready.
service_restarted_from() {
    service_ready && [ "$SERVICE_PID" != "$1" ]
}

# The lines of the kernel's gpio trace so far (a mark for trace_since).
trace_mark() { grep -c 'gpio_value:' "$TRACEFS/trace"; }

# gpio_value events after MARK as "PID LINE VALUE" (LINE as GPIOn).
trace_since() {
    local mark=$1 name
    declare -A by_number=()
    for name in "${!GPIOSIM_OFFSET[@]}"; do by_number[$((GPIO_BASE + GPIOSIM_OFFSET[$name]))]=$name; done
    grep 'gpio_value:' "$TRACEFS/trace" | tail -n +"$((mark + 1))" \
        | sed -nE 's/^ *.*-([0-9]+) +\[[0-9]+\].* gpio_value: ([0-9]+) set ([01]).*/\1 \2 \3/p' \
        | while read -r pid number value; do
            printf '%s %s %s\n' "$pid" "${by_number[$number]:-gpio$number}" "$value"
        done
}

# Checks that after MARK every output was last driven 0 by a process other than the
# service's processes NOT_PIDS (i.e. by ExecStopPost's `pinhole board off`), and, when
# NEW_PID is given, that this happened before NEW_PID drove anything. Prints the off-pid.
outputs_off_between() {
    local mark=$1 old=$2 new=${3:-} events line off_by="" first_new
    events=$(trace_since "$mark")
    printf '%s\n' "$events" > /run/hil/trace-since-$mark.txt
    for line in "${OUTPUT_LINES[@]}"; do
        local index=0 seen=0 pid name value
        while read -r pid name value; do
            index=$((index + 1))
            [ "$name" = "$line" ] || continue
            [ -n "$new" ] && [ "$pid" = "$new" ] && break
            if [ "$pid" != "$old" ] && [ "$value" = 0 ]; then seen=1; off_by=$pid; fi
        done <<<"$events"
        [ "$seen" -eq 1 ] || { echo "no process but the stopped one drove $line off (events: $(grep -c . <<<"$events"))"; return 1; }
    done
    if [ -n "$new" ]; then
        first_new=$(grep -n "^$new " <<<"$events" | head -n 1 | cut -d: -f1)
        local last_off
        last_off=$(grep -n "^$off_by " <<<"$events" | tail -n 1 | cut -d: -f1)
        [ -z "$first_new" ] || [ "$last_off" -lt "$first_new" ] \
            || { echo "the restarted pinhole ($new) drove lines before the outputs were off"; return 1; }
    fi
    echo "$off_by"
}

check_service_user() {
    local user groups unit
    if ! wait_until 120000 service_ready; then
        fail "service user" "pinhole.service not active with every line held 120 s after boot" \
            "($(systemctl is-active "$SERVICE"); $(journalctl -u pinhole --no-pager -n 3 | tr '\n' ' '))"
        return 1
    fi
    user=$(ps -o user= -p "$SERVICE_PID" | tr -d ' ')
    SERVICE_USER="user ${user:-?}"
    HIL_CHECK_PREFIX="service ($SERVICE_USER): "
    groups=$(ps -o supgrp= -p "$SERVICE_PID" | tr -d ' ')
    unit=$(systemctl show -p FragmentPath --value "$SERVICE")
    [ "$user" = pinhole ] || { fail "service user" "pinhole.service runs as '$user', expected pinhole"; return 1; }
    ok "service user" "pinhole.service ($unit) runs as user $user (groups $groups), pid $SERVICE_PID," \
        "holds GPIO17 GPIO27 GPIO22 GPIO23..GPIO26 on $(stat -c '%n %U:%G %a' "/dev/$GPIOSIM_CHIP")"
}

check_service_stop() {
    local mark pid off_by
    pid=$SERVICE_PID
    mark=$(trace_mark)
    systemctl stop "$SERVICE"
    [ "$(systemctl is-active "$SERVICE")" != active ] || { fail "systemctl stop" "still active"; return 1; }
    if ! off_by=$(outputs_off_between "$mark" "$pid"); then
        fail "systemctl stop" "$off_by (trace: /run/hil/trace-since-$mark.txt)"
        return 1
    fi
    ok "systemctl stop" "pinhole ($pid) stopped; ExecStopPost (pid $off_by, pinhole board off) drove" \
        "GPIO23..GPIO26 off; $(journalctl -u pinhole --no-pager -o cat | grep -m1 '^ok off:' || echo 'no ok off line')"
}

check_doctor() {
    local out status
    out=$(pinhole doctor 2>&1)
    status=$?
    printf '%s\n' "$out" > /run/hil/doctor.txt
    if [ "$status" -ne 0 ]; then
        fail "pinhole doctor" "exit $status: $(grep -v '^ok' <<<"$out" | head -n 4 | tr '\n' ' ')"
        return 1
    fi
    ok "pinhole doctor" "exit 0, $(grep -c '^ok ' <<<"$out") items OK:" \
        "$(sed -n 's/^ok \([^:]*\):.*/\1/p' <<<"$out" | paste -sd, | sed 's/,/, /g')"
}

# Starts the service again and waits for it.
restart_service() {
    systemctl start "$SERVICE"
    wait_until 120000 service_ready
}

check_sigkill_restart() {
    local mark old off_by
    restart_service || { fail "SIGKILL restart" "the service did not start again"; return 1; }
    gpiosim_click_with_bounce GPIO22 600  # the torch on, so that "off" means something
    wait_until 20000 gpiosim_level_is GPIO26 1 || { fail "SIGKILL restart" "the torch did not come on"; return 1; }
    old=$SERVICE_PID
    mark=$(trace_mark)
    kill -KILL "$old"
    if ! wait_until 60000 service_restarted_from "$old"; then
        fail "SIGKILL restart" "no new pinhole 60 s after SIGKILL of $old ($(systemctl is-active "$SERVICE"))"
        return 1
    fi
    if ! off_by=$(outputs_off_between "$mark" "$old" "$SERVICE_PID"); then
        fail "SIGKILL restart" "$off_by (trace: /run/hil/trace-since-$mark.txt)"
        return 1
    fi
    ok "SIGKILL restart" "pinhole $old killed (torch on) → outputs off by ExecStopPost (pid $off_by)" \
        "→ restarted by systemd as pid $SERVICE_PID (NRestarts=$(systemctl show -p NRestarts --value "$SERVICE"))"
}

# A systemd time span as `systemctl show` prints it ("20s", "1min 30s", "500ms") in ms.
timespan_ms() {
    local part ms=0
    for part in $1; do
        case "$part" in
            *min) ms=$((ms + ${part%min} * 60000)) ;;
            *ms) ms=$((ms + ${part%ms})) ;;
            *s) ms=$((ms + ${part%s} * 1000)) ;;
        esac
    done
    echo "$ms"
}

# Whether the unit's journal reports a watchdog timeout after the first N of its lines.
watchdog_timeout_after() {
    journalctl -u pinhole --no-pager -o cat | tail -n +"$(($1 + 1))" | grep -q 'Watchdog timeout'
}

# SIGSTOP hangs pinhole: systemd's watchdog kills it and the service starts again. Each step
# waits for its event: systemd's 'Watchdog timeout' (due WatchdogSec after the last ping;
# up to three times that on a loaded host), then the new process ready with every line
# held, within the same 120 s as the service's first start.
check_watchdog_restart() {
    local mark old off_by usec journal_lines
    usec=$(systemctl show -p WatchdogUSec --value "$SERVICE")
    old=$SERVICE_PID
    mark=$(trace_mark)
    journal_lines=$(journalctl -u pinhole --no-pager -o cat | wc -l)
    kill -STOP "$old"
    if ! wait_until "$((3 * $(timespan_ms "$usec") + 10000))" watchdog_timeout_after "$journal_lines"; then
        fail "watchdog restart" "pinhole $old stopped (SIGSTOP), but no 'Watchdog timeout' in the journal" \
            "within 3 × WatchdogSec ($usec) + 10 s"
        kill -CONT "$old" 2>/dev/null
        return 1
    fi
    if ! wait_until 120000 service_restarted_from "$old"; then
        fail "watchdog restart" "systemd's watchdog killed pinhole $old, but no new pinhole was ready within 120 s" \
            "($(systemctl is-active "$SERVICE"))"
        return 1
    fi
    if ! off_by=$(outputs_off_between "$mark" "$old" "$SERVICE_PID"); then
        fail "watchdog restart" "$off_by (trace: /run/hil/trace-since-$mark.txt)"
        return 1
    fi
    ok "watchdog restart" "pinhole $old hung (SIGSTOP) → systemd's watchdog ($usec) killed it," \
        "outputs off (pid $off_by), restarted as pid $SERVICE_PID"
}

# `library export` over the console to the "USB stick" (a vfat disk service-stage2 mounted at
# /media/stick before systemd started): ProtectSystem=strict makes every file system mounted
# at start read-only to the service unless the unit's ReadWritePaths names it.
check_export_to_stick() {
    local answer target=/media/stick/pinhole-export count
    if ! answer=$(console_ask "library export $target" 120000); then
        fail "export to a stick" "no answer to 'library export $target' within 120 s"
        return 1
    fi
    count=$(find "$target" -name '*.jpg' 2>/dev/null | wc -l)
    case "$answer" in
        ok*exported*)
            if [ "$count" -ge 1 ]; then
                ok "export to a stick" "'$answer'; $count JPEG(s) on $(findmnt -n -o SOURCE,FSTYPE /media/stick | tr -s ' ')"
            else
                fail "export to a stick" "'$answer' but no JPEG under $target"
            fi ;;
        *) fail "export to a stick" "'library export $target' answered: $answer" ;;
    esac
}

# `library export` to /srv/outside, a tmpfs the service's user owns (service-stage2) on a
# path the unit's ReadWritePaths does not name: ProtectSystem=strict makes it read-only to
# the service, so the export is refused with an error and writes nothing, while the same
# user outside the unit can write there.
check_export_outside_paths() {
    local answer target=/srv/outside/pinhole-export probe=/srv/outside/.written-by-pinhole-user count
    if ! runuser -u pinhole -- touch "$probe"; then
        fail "export outside ReadWritePaths" "user pinhole cannot write /srv/outside even outside the unit"
        return 1
    fi
    rm -f "$probe"
    if ! answer=$(console_ask "library export $target" 120000); then
        fail "export outside ReadWritePaths" "no answer to 'library export $target' within 120 s"
        return 1
    fi
    count=$(find /srv/outside -type f 2>/dev/null | wc -l)
    case "$answer" in
        error*)
            if [ "$count" -eq 0 ]; then
                ok "export outside ReadWritePaths" "'library export $target' → '$(cut -c1-160 <<<"$answer")';" \
                    "nothing written (user pinhole can write /srv/outside outside the unit)"
            else
                fail "export outside ReadWritePaths" "answered '$answer' but $count file(s) under /srv/outside"
            fi ;;
        *) fail "export outside ReadWritePaths" "'library export $target' was not refused: $answer" ;;
    esac
}

# The unit's resource limits hold the running appliance with room to spare: its threads,
# descriptors and memory (peak) against TasksMax, LimitNOFILE and MemoryMax.
check_service_limits() {
    local pid tasks_max nofile memory_max threads fds peak ipc
    pid=$(main_pid)
    tasks_max=$(systemctl show -p TasksMax --value "$SERVICE")
    nofile=$(systemctl show -p LimitNOFILE --value "$SERVICE")
    memory_max=$(systemctl show -p MemoryMax --value "$SERVICE")
    ipc=$(systemctl show -p PrivateIPC --value "$SERVICE")
    threads=$(awk '/^Threads:/ { print $2 }' "/proc/$pid/status")
    fds=$(find "/proc/$pid/fd" -mindepth 1 -maxdepth 1 2>/dev/null | wc -l)
    peak=$(awk '/^VmHWM:/ { print $2 * 1024 }' "/proc/$pid/status")
    for value in "$tasks_max" "$nofile" "$memory_max"; do
        [[ "$value" =~ ^[0-9]+$ ]] || { fail "service limits" "a limit is not set (TasksMax $tasks_max, LimitNOFILE $nofile, MemoryMax $memory_max)"; return 1; }
    done
    [ "$ipc" = yes ] || { fail "service limits" "PrivateIPC is '$ipc'"; return 1; }
    if [ "$((threads * 2))" -gt "$tasks_max" ] || [ "$((fds * 4))" -gt "$nofile" ] || [ "$((peak * 2))" -gt "$memory_max" ]; then
        fail "service limits" "less than twice the room: $threads threads of $tasks_max, $fds descriptors of $nofile," \
            "peak $((peak >> 20)) MiB of $((memory_max >> 20)) MiB"
        return 1
    fi
    ok "service limits" "pid $pid: $threads threads (TasksMax $tasks_max), $fds descriptors (LimitNOFILE $nofile)," \
        "peak $((peak >> 20)) MiB (MemoryMax $((memory_max >> 20)) MiB), PrivateIPC $ipc"
}

check_journal() {
    local log
    log=$(journalctl -u pinhole --no-pager -o cat)
    if grep -q '^pinhole: board vm' <<<"$log" && grep -q '^pinhole: saved ' <<<"$log"; then
        ok "journalctl -u pinhole" "$(grep -c . <<<"$log") lines, e.g. '$(grep -m1 '^pinhole: saved ' <<<"$log" | cut -c1-100)'"
    else
        fail "journalctl -u pinhole" "no 'pinhole: board vm' or 'pinhole: saved' line in the unit's journal"
    fi
}

# The torch button as in check_torch_button, with 600 ms clicks: the torch toggles on the
# press, so the length does not matter to the appliance, but with kernel debounce a press
# is reported only when the debounce work runs while the line is still low. In this guest
# (systemd, journald and vimc's frame thread on one emulated CPU, on a loaded host) a whole
# click (stretched to 279 ms) once produced no event at all, most likely because that work
# ran after the release; a longer click leaves it more time.
check_service_torch() {
    local step
    for step in 1 0 1; do
        gpiosim_click_with_bounce GPIO22 600
        wait_until 20000 gpiosim_level_is GPIO26 "$step" \
            || { fail "torch button" "torch LED GPIO26 not $step 20 s after a click of GPIO22;" \
                    "appliance: $(gpio_status_of GPIO22)"; return 1; }
    done
    ok "torch button" "GPIO22 clicked three times → torch LED GPIO26 on, off, on (read back from gpio-sim)"
}

# `dpkg --purge` while the service runs: prerm stops it with every output off, postrm
# removes /etc/pinhole, and the photo library stays.
check_purge() {
    local mark old before after
    old=$(main_pid)
    before=$(library_photos | wc -l)
    mark=$(trace_mark)
    if ! dpkg --purge pinhole > /run/hil/dpkg-purge.log 2>&1; then
        fail "purge" "dpkg --purge failed: $(tail -n 2 /run/hil/dpkg-purge.log | tr '\n' ' ')"
        return 1
    fi
    local status
    status=$(systemctl is-active "$SERVICE")
    [ "$status" != active ] || { fail "purge" "pinhole.service still active after purge"; return 1; }
    local line left_on=()
    for line in "${OUTPUT_LINES[@]}"; do
        [ "$(trace_since "$mark" | awk -v l="$line" '$2 == l { v = $3 } END { print v }')" = 1 ] && left_on+=("$line")
    done
    [ "${#left_on[@]}" -eq 0 ] || { fail "purge" "left on after purge: ${left_on[*]}"; return 1; }
    [ ! -e /etc/pinhole ] || { fail "purge" "/etc/pinhole is still there"; return 1; }
    [ ! -e "$WEB_DROP_IN" ] && [ ! -e "$WEB_AVAHI" ] \
        || { fail "purge" "the web files are still there ($(ls "$WEB_DROP_IN" "$WEB_AVAHI" 2>/dev/null | paste -sd ' '))"; return 1; }
    after=$(library_photos | wc -l)
    [ "$before" -gt 0 ] && [ "$after" -eq "$before" ] \
        || { fail "purge" "the library had $before photos, $after after purge"; return 1; }
    ok "purge" "dpkg --purge stopped pinhole ($old, $status), outputs off, /etc/pinhole and the web files removed;" \
        "the library's $after photo(s) kept in $LIBRARY"
}

# The web gallery as an administrator turns it on: `[web] listen` and a PIN in pinhole.toml,
# `dpkg-reconfigure pinhole` (the package's postinst runs `pinhole web files --if-enabled`),
# then a restart. The postinst writes the unit's drop-in and the avahi file for that port;
# the restarted service listens on exactly that address; a page answers curl in the guest;
# and the unit's network restriction is the one the address needs: a client from a private
# address (192.168.77.1) gets the page, one from a public address (203.0.113.5, both on a
# dummy interface, so the packets stay in this guest) gets nothing (IPAddressAllow).
WEB_PORT=8080
WEB_DROP_IN=/etc/systemd/system/pinhole.service.d/web.conf
WEB_AVAHI=/etc/avahi/services/pinhole-web.service

# The service's listening TCP sockets as "ADDRESS:PORT", one a line.
service_listening() {
    ss -Hltnp 2>/dev/null | awk -v pid="pid=$SERVICE_PID," 'index($0, pid) { print $4 }' | sort
}

web_listening() { service_ready && [ -n "$(service_listening)" ]; }

# curl's HTTP status for PATH from SOURCE (an address of this guest), within 10 s ("000": none).
web_status_from() {
    curl -s -o /dev/null -w '%{http_code}' --max-time 10 --interface "$1" "http://$2:$WEB_PORT$3" || true
}

# Restarts the service and waits until it is ready and listening again (after a drop-in change).
restart_web_service() {
    systemctl daemon-reload
    systemctl restart "$SERVICE"
    wait_until 120000 web_listening
}

check_web_files() {
    local hash old
    hash=$(printf '2468\n' | pinhole console hash-pin) || { fail "web files (postinst)" "pinhole console hash-pin failed"; return 1; }
    sed -i "/^\[console\]/a $hash" /etc/pinhole/pinhole.toml
    printf '[web]\nlisten = "0.0.0.0:%s"\n' "$WEB_PORT" >> /etc/pinhole/pinhole.toml
    rm -f "$WEB_DROP_IN" "$WEB_AVAHI"
    if ! dpkg-reconfigure pinhole > /run/hil/dpkg-reconfigure.log 2>&1; then
        fail "web files (postinst)" "dpkg-reconfigure pinhole failed: $(tail -n 2 /run/hil/dpkg-reconfigure.log | tr '\n' ' ')"
        return 1
    fi
    cp "$WEB_DROP_IN" /run/hil/web.conf 2>/dev/null
    if ! grep -qx "SocketBindAllow=tcp:$WEB_PORT" "$WEB_DROP_IN" 2>/dev/null \
        || ! grep -qx 'SocketBindDeny=any' "$WEB_DROP_IN" \
        || ! grep -q "<port>$WEB_PORT</port>" "$WEB_AVAHI" 2>/dev/null \
        || ! grep -q '<type>_http._tcp</type>' "$WEB_AVAHI"; then
        fail "web files (postinst)" "after dpkg-reconfigure: $WEB_DROP_IN: $(tr '\n' ' ' < "$WEB_DROP_IN" 2>&1 | cut -c1-200);" \
            "$WEB_AVAHI: $(grep -c . "$WEB_AVAHI" 2>&1) lines"
        return 1
    fi
    ok "web files (postinst)" "listen = \"0.0.0.0:$WEB_PORT\" and a PIN → dpkg-reconfigure wrote $WEB_DROP_IN" \
        "($(grep -E '^(SocketBind|IPAddressAllow)' "$WEB_DROP_IN" | tr '\n' ' ' | cut -c1-160)…) and $WEB_AVAHI" \
        "($(grep -o '<type>[^<]*</type>' "$WEB_AVAHI" | head -n 1) port $WEB_PORT)"
    old=$SERVICE_PID
    if ! restart_web_service; then
        fail "web gallery listens" "pinhole.service not ready and listening 120 s after its restart" \
            "($(systemctl is-active "$SERVICE"); $(journalctl -u pinhole --no-pager -n 3 -o cat | tr '\n' ' '))"
        return 1
    fi
    note "web: pinhole $old restarted as $SERVICE_PID with the drop-in"
}

check_web_listens() {
    local sockets status body
    sockets=$(service_listening | paste -sd ' ')
    if [ "$sockets" != "0.0.0.0:$WEB_PORT" ]; then
        fail "web gallery listens" "pinhole ($SERVICE_PID) listens on '$sockets', expected exactly 0.0.0.0:$WEB_PORT"
        return 1
    fi
    body=$(curl -s --max-time 20 "http://127.0.0.1:$WEB_PORT/login") || true
    status=$(curl -s -o /dev/null -w '%{http_code}' --max-time 20 "http://127.0.0.1:$WEB_PORT/") || true
    case "$body" in
        *'<form'*PIN*) ;;
        *) fail "web gallery listens" "GET /login from the guest: no login form ($(cut -c1-120 <<<"$body"))"; return 1 ;;
    esac
    [ "$status" = 303 ] || { fail "web gallery listens" "GET / without a session answered $status, expected 303 to /login"; return 1; }
    ok "web gallery listens" "pinhole ($SERVICE_PID, user $(ps -o user= -p "$SERVICE_PID" | tr -d ' ')) listens on exactly" \
        "$sockets; curl in the guest: /login is the PIN form ($(wc -c <<<"$body") B), / without a session → $status"
}

check_web_restriction() {
    local families bind allow private public
    families=$(systemctl show -p RestrictAddressFamilies --value "$SERVICE")
    bind=$(systemctl show -p SocketBindAllow --value "$SERVICE")
    allow=$(systemctl show -p IPAddressAllow --value "$SERVICE")
    modprobe dummy 2>/dev/null
    if ! ip link add hilweb0 type dummy 2>/dev/null || ! ip addr add 192.168.77.1/24 dev hilweb0 \
        || ! ip addr add 203.0.113.5/24 dev hilweb0 || ! ip link set hilweb0 up; then
        fail "web network restriction" "cannot make the dummy interface hilweb0 (module dummy: $(modinfo -F filename dummy 2>&1))"
        fail "web restriction control" "no dummy interface hilweb0 to test from"
        return 1
    fi
    private=$(web_status_from 192.168.77.1 192.168.77.1 /login)
    public=$(web_status_from 203.0.113.5 203.0.113.5 /login)
    local problem=""
    case "$families" in
        *AF_INET6*) problem="RestrictAddressFamilies=$families allows AF_INET6 for an IPv4 listen" ;;
        *AF_INET*) ;;
        *) problem="RestrictAddressFamilies=$families has no AF_INET" ;;
    esac
    if [ "$private" != 200 ] || [ "$public" != 000 ]; then
        problem="from 192.168.77.1: $private (expected 200), from 203.0.113.5: $public (expected no answer); IPAddressAllow=$allow"
    fi
    if [ -n "$problem" ]; then
        fail "web network restriction" "$problem"
    else
        ok "web network restriction" "RestrictAddressFamilies=$families, SocketBindAllow=$bind (deny any)," \
            "IPAddressAllow=$(cut -c1-80 <<<"$allow")…: from 192.168.77.1 → $private, from 203.0.113.5 → no answer"
    fi
    check_web_restriction_control
    ip link del hilweb0 2>/dev/null
}

# The control of the check above: with the unit's address restriction lifted (a runtime drop-in
# resetting IPAddressDeny and IPAddressAllow), 203.0.113.5 must get its answer, so "no answer"
# above was the restriction and not a broken test network; with it back, no answer again.
check_web_restriction_control() {
    local lifted deny public private
    local drop_in=/run/systemd/system/$SERVICE.d/zz-hil-unrestricted.conf
    mkdir -p "${drop_in%/*}"
    printf '[Service]\nIPAddressDeny=\nIPAddressAllow=\n' > "$drop_in"
    if ! restart_web_service; then
        rm -f "$drop_in"
        restart_web_service
        fail "web restriction control" "pinhole.service not ready and listening 120 s after its restart with $drop_in"
        return 1
    fi
    deny=$(systemctl show -p IPAddressDeny --value "$SERVICE")
    lifted=$(web_status_from 203.0.113.5 203.0.113.5 /login)
    rm -f "$drop_in"
    if ! restart_web_service; then
        fail "web restriction control" "pinhole.service not ready and listening 120 s after its restart without $drop_in"
        return 1
    fi
    public=$(web_status_from 203.0.113.5 203.0.113.5 /login)
    private=$(web_status_from 192.168.77.1 192.168.77.1 /login)
    if [ "$lifted" != 200 ] || [ -n "$deny" ] || [ "$public" != 000 ] || [ "$private" != 200 ]; then
        fail "web restriction control" "lifted (IPAddressDeny='$deny', expected empty): from 203.0.113.5 $lifted (expected 200);" \
            "restored: from 203.0.113.5 $public (expected no answer), from 192.168.77.1 $private (expected 200)"
        return 1
    fi
    ok "web restriction control" "with IPAddressDeny/IPAddressAllow reset by a runtime drop-in: from 203.0.113.5 → $lifted;" \
        "drop-in removed and restarted ($SERVICE_PID): from 203.0.113.5 → no answer again, from 192.168.77.1 → $private"
}

check_web_gallery() {
    check_web_files || return
    check_web_listens
    check_web_restriction
}

run_service_checks() {
    check_service_user || return
    APPLIANCE_PID=$SERVICE_PID
    if check_shutter_capture; then
        check_photo_exif
        check_capture_led
        check_console_reports_photo
    fi
    check_console_status
    check_export_to_stick
    check_export_outside_paths
    check_service_limits
    check_service_torch
    check_service_stop
    check_doctor
    check_sigkill_restart && check_watchdog_restart
    check_journal
    check_web_gallery
    check_purge
}
