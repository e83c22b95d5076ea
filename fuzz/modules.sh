# Sourced by the libFuzzer runners (tools/fuzz, fuzz/*/run): builds the Swift targets an entry point
# imports, with everything they depend on, through SwiftPM with -sanitize=fuzzer,address (release,
# own build path .build/fuzz-spm, so module moves in Package.swift need no change here), and links
# the entry point against their object files (fuzz/link-args). One -sanitize=fuzzer,address: SwiftPM's
# --sanitize=fuzzer --sanitize=address passes two flags, and swiftc keeps only the last (no coverage).
fuzz_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
fuzz_build_path="$fuzz_root/.build/fuzz-spm"

# fuzz_link ENTRY.swift OUTPUT TARGET... [-- EXTRA_SWIFTC_ARGUMENTS...]
fuzz_link() {
    local entry="$1" output="$2" targets=() extra=() target arguments
    shift 2
    while [ $# -gt 0 ]; do
        if [ "$1" = -- ]; then shift; extra=("$@"); break; fi
        targets+=("$1"); shift
    done
    for target in "${targets[@]}"; do
        echo "fuzz: building $target and its dependencies with -sanitize=fuzzer,address"
        (cd "$fuzz_root" && swift build -c release --build-path "$fuzz_build_path" \
            -Xswiftc -sanitize=fuzzer,address --target "$target" 2>&1 \
            | grep -E "error|warning: |Build" | grep -v "unhandled; explicitly declare")
    done
    mapfile -t arguments < <("$fuzz_root/fuzz/link-args" "$fuzz_root" "$fuzz_build_path" "${targets[@]}")
    [ "${#arguments[@]}" -gt 0 ] || { echo "fuzz: no link arguments for ${targets[*]}" >&2; return 1; }
    echo "fuzz: linking $(basename "$output")"
    swiftc -sanitize=fuzzer,address -parse-as-library -swift-version 6 -O -g -use-ld=lld \
        "${arguments[@]}" "${extra[@]}" "$entry" -o "$output"
}
