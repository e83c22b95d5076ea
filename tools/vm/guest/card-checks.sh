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
CARD_CHECKS=("full card ends a recording" "full card keeps the clip and the photos" "full card refuses a capture"
    "full card next start clean")

# Mounts the card at CARD (a directory on tmpfs when that fails: the other checks still run,
# the card's fail with the reason).
card_mount() {
    mkdir -p "$CARD"
    modprobe -a virtio_blk ext4 2>/dev/null
    wait_until 20000 test -b "$CARD_DEVICE" || { CARD_WHY="no $CARD_DEVICE (tools/hil attaches card.img)"; return 1; }
    mount -t ext4 "$CARD_DEVICE" "$CARD" || { CARD_WHY="mount -t ext4 $CARD_DEVICE $CARD failed"; return 1; }
    CARD_MOUNTED=1
}

# Bytes available on the card (statfs f_bavail × f_bsize, as the library reads it).
card_free() {
    stat -f -c '%a %S' "$CARD" | awk '{ printf "%d\n", $1 * $2 }'
}

# Grows the filler files until about TARGET bytes are free (never below: rounded to blocks).
card_fill_to() {
    local target=$1 free excess
    free=$(card_free)
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

# `library fsck --verify --json` over the console: prints the problem when it is not clean.
card_fsck_clean() {
    local answer
    answer=$(console_ask "library fsck --verify --json" 180000) || { echo "no answer to 'library fsck --verify --json'"; return 1; }
    [[ "$answer" == *'"clean":true'* ]] && [[ "$answer" == *'"quarantinedFiles":0'* ]] \
        && [[ "$answer" == *'"recordings":[]'* ]] || { echo "library fsck --verify --json: ${answer:0:400}"; return 1; }
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
        for name in "${CARD_CHECKS[@]}"; do fail "$name" "no card: $CARD_WHY"; done
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
    note "full card: recording $id held $seen bytes; the card now has $(card_free) bytes free (reserve $CARD_RESERVE)"
    line=$(console_expect 0 "event recording (saved|failed) $id " 600000) \
        || { fail "$name" "recording $id did not end within 600 s of the card filling ($(card_free) bytes free)"
             card_give_up; return 1; }
    [[ "$line" == *"recording saved $id "* ]] || { fail "$name" "$line"; card_give_up; return 1; }
    # A wrong message fails this check only: what was kept is still checked below.
    said=${line#*\(}
    if [[ "$said" == *"storage full"*"clip"*"free space on $CARD"*"in reserve"* ]]; then ok "$name" "'$line'"
    else fail "$name" "'$line' does not say the card is full, that the clip ends, where to free space and that the library keeps a reserve"
    fi

    file=$(awk '{print $5}' <<<"$line")
    [ -f "$file" ] || file="$LIBRARY/$file"
    probe=$(ffprobe -v error -count_frames -select_streams v:0 -show_entries stream=codec_name,nb_read_frames \
        -of csv=p=0 "$file" 2>&1)
    errors=$(ffmpeg -nostdin -v error -xerror -i "$file" -f null - 2>&1 | head -n 3)
    frames=${probe#h264,}
    listing=$(console_ask "library list --type video --json" 60000)
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
