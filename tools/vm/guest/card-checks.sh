# A full card on a real file system: the library on ext4 on a virtio disk, filled by a recording (sourced).
# shellcheck shell=bash
#
# Needs hil-lib.sh, console.sh and appliance-checks.sh. tools/hil attaches a 320 MB ext4
# image (no root reserve) as /dev/vda; card_mount mounts it at CARD, where the appliance's
# library lives (LIBRARY in appliance-checks.sh) for the whole scenario. check_full_card fills
# it with fallocate'd filler files to a little above the library's reserve, records until the
# reserve ends the clip, and checks what issue 21 promises of a full card; check_card_restart
# checks the start after space was freed.

CARD=/tmp/card
CARD_DEVICE=/dev/vda
# PhotoLibrary's default reserve (LibraryOptions.reservedBytes): the free space the library
# never writes into, so that its index stays writable.
CARD_RESERVE=8000000
CARD_MOUNTED=0
CARD_WHY=""
CARD_CHECKS=("full card meets ENOSPC mid-write" "ENOSPC clip kept to its last whole fragment"
    "full card ends a recording" "full card keeps the clip and the photos" "full card refuses a capture"
    "full card next start clean")
# Seconds the recording's first write after `strace` attaches is held at its entry (after the
# library's reserve check let it through), while another writer fills the card's last 7 MB
# (one fallocate and a few 4 kB writes: well under a second under TCG; a fill that outlasts
# the hold fails the check, saying so). Short: while the recorder's thread is held, the
# camera's buffers wait for it; a 20 s hold made vimc starve and the camera watchdog restart
# it, which ended the clip for that reason instead.
CARD_HOLD_S=6

# Mounts the card at CARD (a directory on tmpfs when that fails: the other checks still run,
# the card's fail with the reason).
card_mount() {
    mkdir -p "$CARD"
    modprobe -a virtio_blk ext4 2>/dev/null
    wait_until 20000 test -b "$CARD_DEVICE" || { CARD_WHY="no $CARD_DEVICE (tools/hil attaches card.img)"; return 1; }
    mount -t ext4 "$CARD_DEVICE" "$CARD" || { CARD_WHY="mount -t ext4 $CARD_DEVICE $CARD failed"; return 1; }
    CARD_MOUNTED=1
}

# Fills the card to its last block as another program would: fallocate, then dd until ENOSPC.
card_fill_all() {
    local free
    free=$(card_free)
    CARD_FILLERS=$((CARD_FILLERS + 1))
    [ "$free" -le 65536 ] || fallocate -l $(( (free - 65536) / 4096 * 4096 )) "$CARD/filler.$CARD_FILLERS"
    dd if=/dev/zero of="$CARD/filler.$CARD_FILLERS.tail" bs=4096 status=none 2>/dev/null
    sync
}

# Whether a thread of PID is stopped by strace at the entry of a write(2) to FD (the injected
# delay): state `t`, /proc/…/syscall "1 0x<fd> …" (x86_64 write is syscall 1). Builtins only:
# polled every 0.2 s while the hold runs, and a fork per thread (awk, cat) made one round take
# seconds under TCG with strace attached (the held write went on before the fill began).
card_write_held() {
    local pid=$1 task stat syscall want
    printf -v want '1 0x%x ' "$2"
    for task in /proc/"$pid"/task/*; do
        read -r stat 2>/dev/null < "$task/stat" || continue
        stat=${stat##*) }
        [ "${stat%% *}" = t ] || continue
        read -r syscall 2>/dev/null < "$task/syscall" || continue
        [[ "$syscall" == "$want"* ]] && return 0
    done
    return 1
}

# Whether a top-level MP4 box walk tiles FILE exactly and ends with a moof+mdat pair (the file
# ends at a whole fragment); prints what it found otherwise.
card_ends_at_whole_fragment() {
    python3 - "$1" <<'PY'
import struct, sys
data = open(sys.argv[1], "rb").read()
offset, kinds = 0, []
while offset + 8 <= len(data):
    size, kind = struct.unpack(">I4s", data[offset:offset + 8])
    if size == 1 and offset + 16 <= len(data):
        size = struct.unpack(">Q", data[offset + 8:offset + 16])[0]
    if size < 8 or offset + size > len(data):
        break
    kinds.append(kind.decode("latin-1"))
    offset += size
if offset != len(data) or kinds[-2:] != ["moof", "mdat"]:
    print(f"boxes {kinds[-4:]} cover {offset} of {len(data)} bytes")
    sys.exit(1)
PY
}

# Bytes available on the card (statfs f_bavail × f_bsize).
card_free() {
    stat -f -c '%a %S' "$CARD" | awk '{ printf "%d\n", $1 * $2 }'
}

# Free bytes as the library's reserve checks count them: the card's, plus the index room a
# recording keeps allocated for its entry (`.clip-index-room`, given back before the entry).
card_library_free() {
    local room
    room=$(stat -c %s "$LIBRARY/.clip-index-room" 2>/dev/null || echo 0)
    echo $(( $(card_free) + room ))
}

# Grows the filler files until the library sees about TARGET bytes free (never below: rounded
# to blocks; TARGET is at least the reserve, larger than the room).
card_fill_to() {
    local target=$1 free excess
    free=$(card_library_free)
    excess=$(( (free - target) / 4096 * 4096 ))
    [ "$excess" -gt 0 ] || return 0
    CARD_FILLERS=$((CARD_FILLERS + 1))
    fallocate -l "$excess" "$CARD/filler.$CARD_FILLERS"
}
CARD_FILLERS=0

# The hidden file of the clip being recorded (`.ID.mp4.recording`), and its size.
card_recording_size() {
    find "$LIBRARY" -name '.*.mp4.recording' -printf '%s\n' 2>/dev/null | head -n 1
}
card_recording_at_least() {
    local size
    size=$(card_recording_size)
    [ -n "$size" ] && [ "$size" -ge "$1" ]
}

# sha256 of every original (photos, clips) under the library.
card_originals_digest() {
    find "$LIBRARY" -path '*originals*' -type f ! -name '.*' -print0 | sort -z | xargs -0 -r sha256sum
}

# The clip an `event recording saved ID FILE …` LINE names, read back: sets file, probe
# (ffprobe's codec and frame count), frames, errors (`ffmpeg -xerror`'s first lines) and listing
# (`library list --type video --json`) in the caller.
card_read_clip() {
    file=$(awk '{print $5}' <<<"$1")
    [ -f "$file" ] || file="$LIBRARY/$file"
    probe=$(ffprobe -v error -count_frames -select_streams v:0 -show_entries stream=codec_name,nb_read_frames \
        -of csv=p=0 "$file" 2>&1)
    errors=$(ffmpeg -nostdin -v error -xerror -i "$file" -f null - 2>&1 | head -n 3)
    frames=${probe#h264,}
    listing=$(console_ask "library list --type video --json" 60000)
}

# `library fsck --verify --json` over the console: prints the problem when it is not clean.
card_fsck_clean() {
    local answer
    answer=$(console_ask "library fsck --verify --json" 180000) || { echo "no answer to 'library fsck --verify --json'"; return 1; }
    [[ "$answer" == *'"clean":true'* ]] && [[ "$answer" == *'"quarantinedFiles":0'* ]] \
        && [[ "$answer" == *'"recordings":[]'* ]] || { echo "library fsck --verify --json: ${answer:0:400}"; return 1; }
}

# Another program fills the card during a recording, between the library's reserve check and
# the clip's write (the field case: a second writer on the card). To make that deterministic,
# `strace -P` holds the recording's next write(2) at its entry (the reserve check already passed)
# for CARD_HOLD_S seconds; meanwhile the card is filled to its last block; the write then meets
# the kernel's ENOSPC (the part that fits in the file's last block lands, the rest is refused).
# The check passes only when strace logged a write to the recording that returned ENOSPC and
# the appliance said so (`… the file system said ENOSPC …` in `event recording saved`). The clip
# must then be cut back to its last whole fragment (MP4 boxes tile the file, ending moof+mdat;
# the size the file had before the refused write), every frame decode, be listed as a video,
# and leave the photos before it unchanged and fsck --verify clean. The fillers go at the end.
check_card_enospc() {
    local name="full card meets ENOSPC mid-write" keep="ENOSPC clip kept to its last whole fragment"
    local digest answer id seen rec fd log tracer before line file probe frames errors listing problem enospc
    local partial whole
    [ "$CARD_MOUNTED" = 1 ] || { fail "$name" "no card: $CARD_WHY"; fail "$keep" "no card: $CARD_WHY"; return 1; }
    digest=$(card_originals_digest)
    answer=$(console_ask "record start --max 900" 60000) \
        || { fail "$name" "no answer to 'record start --max 900' within 60 s"; fail "$keep" "not run"; return 1; }
    [[ "$answer" =~ ^ok\ recording\ ([0-9]+) ]] \
        || { fail "$name" "'record start' answered: $answer"; fail "$keep" "not run"; return 1; }
    id=${BASH_REMATCH[1]}
    # One whole fragment written (the file grows past its header), so there is one to keep.
    wait_until 180000 card_recording_at_least 1 \
        || { fail "$name" "no .recording file in $LIBRARY within 180 s"; fail "$keep" "not run"; return 1; }
    seen=$(card_recording_size)
    wait_until 180000 card_recording_at_least $((seen + 1)) \
        || { fail "$name" "the recording did not grow past $seen bytes in 180 s"; fail "$keep" "not run"; return 1; }
    # The card filled until the library sees its reserve and 64 kB more (a dozen fragments):
    # the last 7 MB (the reserve less the recording's index room) go in during the hold.
    card_fill_to $((CARD_RESERVE + 65536))
    rec=$(find "$LIBRARY" -name '.*.mp4.recording' | head -n 1)
    fd=$(find /proc/"$APPLIANCE_PID"/fd -lname "$rec" -printf '%f\n' 2>/dev/null | head -n 1)
    [ -n "$fd" ] || { fail "$name" "no descriptor of pinhole ($APPLIANCE_PID) holds $rec"; fail "$keep" "not run"; return 1; }
    log=/run/hil/enospc-strace.txt
    strace -f -tt -p "$APPLIANCE_PID" -P "$rec" -e trace=write,ftruncate \
        -e inject=write:delay_enter="${CARD_HOLD_S}s":when=1 -o "$log" 2>/run/hil/enospc-strace.err &
    tracer=$!
    if ! wait_until 300000 card_write_held "$APPLIANCE_PID" "$fd"; then
        kill "$tracer" 2>/dev/null; wait "$tracer" 2>/dev/null
        fail "$name" "the recording made no write to $rec within 300 s of strace attaching ($(head -c 300 /run/hil/enospc-strace.err))"
        fail "$keep" "not run"; card_give_up; return 1
    fi
    before=$(card_recording_size)
    local fill_ms
    fill_ms=$(uptime_ms)
    card_fill_all
    fill_ms=$(( $(uptime_ms) - fill_ms ))
    note "ENOSPC: recording $id held at a write to $rec (fd $fd, $before bytes); the card filled to $(card_free) bytes free in $fill_ms ms"
    if ! card_write_held "$APPLIANCE_PID" "$fd"; then
        kill "$tracer" 2>/dev/null; wait "$tracer" 2>/dev/null
        fail "$name" "the held write went on before the card was full (found held, then filled in $fill_ms ms: more than the ${CARD_HOLD_S} s hold)"
        fail "$keep" "not run"; card_give_up; return 1
    fi
    line=$(console_expect 0 "event recording (saved|failed) $id " 600000) || line=""
    kill "$tracer" 2>/dev/null; wait "$tracer" 2>/dev/null
    enospc=$(grep -m1 -E '= -1 ENOSPC' "$log")
    partial=$(grep -m1 -E 'write\('"$fd"', .*\(DELAYED\)' "$log" | sed -E 's/.*, ([0-9]+)\) = ([0-9-]+).*/\2 of \1 bytes/')
    if [ -z "$line" ]; then problem="recording $id did not end within 600 s of the card filling ($(card_free) bytes free)"
    elif [ -z "$enospc" ]; then problem="strace logged no write to the recording that met ENOSPC ($log): '$line'"
    elif [[ "$line" != *"recording saved $id "*"storage full (the file system said ENOSPC"*"the clip ends here"*"free space on $CARD"* ]]; then
        problem="'$line' does not say the card filled up (ENOSPC), that the clip ends and where to free space"
    else problem=""
    fi
    if [ -n "$problem" ]; then fail "$name" "$problem"
    else ok "$name" "the held write to the recording wrote $partial, then '${enospc#* }'; '$line'"
    fi
    [ -n "$line" ] || { fail "$keep" "not run: the recording did not end"; card_give_up; return 1; }

    card_read_clip "$line"
    if [ ! -f "$file" ]; then problem="'$line' names no file"
    elif ! whole=$(card_ends_at_whole_fragment "$file"); then problem="$file does not end at a whole fragment: $whole"
    elif [ "$(stat -c %s "$file")" != "$before" ]; then
        problem="$file holds $(stat -c %s "$file") bytes, not the $before it had before the refused fragment"
    elif [[ "$probe" != h264,* ]] || [ "${frames:-0}" -lt 1 ] || [ -n "$errors" ]; then
        problem="ffprobe on $file: '$probe' (want h264 with at least 1 frame); decode errors: '$errors'"
    elif [[ "$listing" != *"$(basename "$file" .mp4)"* ]]; then problem="the clip is not in 'library list --type video': ${listing:0:300}"
    elif [ "$(card_originals_digest | grep -v "$(basename "$file")")" != "$digest" ]; then
        problem="an original recorded before the full card changed (sha256)"
    elif [ -e "$LIBRARY/.clip-index-room" ]; then problem="the recording's index room $LIBRARY/.clip-index-room is left"
    else problem=$(card_fsck_clean) && problem=""
    fi
    if [ -n "$problem" ]; then fail "$keep" "$problem"
    else ok "$keep" "$(basename "$file"): $before bytes (MP4 boxes end with moof+mdat), $frames frames, every one decoded" \
        "by ffmpeg -xerror; listed as a video; $(wc -l <<<"$digest") earlier originals unchanged; fsck --verify clean"
    fi
    card_give_up
}

# A recording on a card with a little more than the reserve free: it must end by itself with
# a line that says the card is full and what to do, keep what it recorded (every frame decodes,
# the clip is indexed), leave the photos before it intact and the library clean; a capture then
# is refused with a clear error and nothing changes. The space is freed at the end.
check_full_card() {
    local name="full card ends a recording" keep="full card keeps the clip and the photos"
    local refuse="full card refuses a capture" digest answer id line file said seen probe frames errors
    local listing free photos problem
    if [ "$CARD_MOUNTED" != 1 ]; then
        for name in "${CARD_CHECKS[@]:2}"; do fail "$name" "no card: $CARD_WHY"; done
        return 1
    fi
    digest=$(card_originals_digest)
    # Room for the first fragments, then (below) about as much again as they took.
    card_fill_to $((CARD_RESERVE + 2000000))
    answer=$(console_ask "record start --max 900" 60000) \
        || { fail "$name" "no answer to 'record start --max 900' within 60 s"; card_give_up; return 1; }
    [[ "$answer" =~ ^ok\ recording\ ([0-9]+) ]] || { fail "$name" "'record start' answered: $answer"; card_give_up; return 1; }
    id=${BASH_REMATCH[1]}
    # Two fragments written (the file grows past its first size), then the card is filled.
    wait_until 180000 card_recording_at_least 1 \
        || { fail "$name" "no .recording file grew in $LIBRARY within 180 s"; card_give_up; return 1; }
    seen=$(card_recording_size)
    wait_until 180000 card_recording_at_least $((seen + 1)) \
        || { fail "$name" "the recording did not grow past $seen bytes in 180 s"; card_give_up; return 1; }
    seen=$(card_recording_size)
    card_fill_to $((CARD_RESERVE + seen))
    note "full card: recording $id held $seen bytes; the card now has $(card_free) bytes free, $(card_library_free) with the recording's index room (reserve $CARD_RESERVE)"
    line=$(console_expect 0 "event recording (saved|failed) $id " 600000) \
        || { fail "$name" "recording $id did not end within 600 s of the card filling ($(card_free) bytes free)"
             card_give_up; return 1; }
    [[ "$line" == *"recording saved $id "* ]] || { fail "$name" "$line"; card_give_up; return 1; }
    # A wrong message fails this check only: what was kept is still checked below.
    said=${line#*\(}
    if [[ "$said" == *"storage full"*"clip"*"free space on $CARD"*"in reserve"* ]]; then ok "$name" "'$line'"
    else fail "$name" "'$line' does not say the card is full, that the clip ends, where to free space and that the library keeps a reserve"
    fi

    card_read_clip "$line"
    free=$(card_free)
    if [ ! -f "$file" ]; then problem="'$line' names no file"
    elif [[ "$probe" != h264,* ]] || [ "${frames:-0}" -lt 1 ] || [ -n "$errors" ]; then
        problem="ffprobe on $file: '$probe' (want h264 with at least 1 frame); decode errors: '$errors'"
    elif [[ "$listing" != *"$(basename "$file" .mp4)"* ]]; then problem="the clip is not in 'library list --type video': ${listing:0:300}"
    elif [ "$free" -lt $((CARD_RESERVE - 65536)) ]; then problem="the reserve did not hold: $free bytes free"
    elif [ "$(card_originals_digest | grep -v "$(basename "$file")")" != "$digest" ]; then
        problem="an original recorded before the full card changed (sha256)"
    else problem=$(card_fsck_clean) && problem=""
    fi
    if [ -n "$problem" ]; then fail "$keep" "$problem"
    else ok "$keep" "$(basename "$file"): $frames frames, every one decoded by ffmpeg -xerror; listed as a video;" \
        "$(wc -l <<<"$digest") earlier originals unchanged; fsck --verify clean; $free bytes free"
    fi

    # The card full to its reserve: a capture must be refused, and change nothing.
    card_fill_to "$CARD_RESERVE"
    digest=$(card_originals_digest)
    photos=$(library_photos | wc -l)
    answer=$(console_ask "capture" 180000) || answer="no answer within 180 s"
    if [[ "$answer" != error*"storage full"*"free space on $CARD"*"in reserve"* ]]; then
        problem="'capture' answered: $answer (want: storage full, free space on $CARD, the library's reserve)"
    elif [ "$(library_photos | wc -l)" != "$photos" ] || [ "$(card_originals_digest)" != "$digest" ]; then
        problem="the refused capture changed the originals"
    else problem=$(card_fsck_clean) && problem=""
    fi
    if [ -n "$problem" ]; then fail "$refuse" "$problem"
    else ok "$refuse" "'$answer'; originals unchanged, fsck --verify clean"
    fi
    card_give_up
}

# Frees the card (the filler files go).
card_give_up() {
    rm -f "$CARD"/filler.*
    sync
}

# The start after the full card (the Live Photo's, from APPLIANCE_LOG line MARK on): no
# recovery at all (no .recording adopted or removed, nothing quarantined), no .recording left,
# and fsck --verify clean.
check_card_restart() {
    local name="full card next start clean" mark=$1 recovered left problem
    [ "$CARD_MOUNTED" = 1 ] || return 0  # failed with the reason in check_full_card
    [ -n "$APPLIANCE_PID" ] || { fail "$name" "not run: the appliance is not running"; return 1; }
    recovered=$(tail -n +"$((mark + 1))" "$APPLIANCE_LOG" | grep -E 'recovery:|quarantin' | head -n 3)
    left=$(find "$LIBRARY" -name '*.recording' | head -n 3)
    if [ -n "$recovered" ]; then problem="the start recovered: $recovered"
    elif [ -n "$left" ]; then problem="left: $left"
    elif [ -n "$(find "$LIBRARY/quarantine" -type f 2>/dev/null)" ]; then problem="quarantine/ holds files"
    else problem=$(card_fsck_clean) && problem=""
    fi
    if [ -n "$problem" ]; then fail "$name" "$problem"
    else ok "$name" "no recovery line at the start after the full card, no .recording, nothing quarantined; fsck --verify clean"
    fi
}
