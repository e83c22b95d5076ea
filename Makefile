# Pinhole: build, run and test. `make run` and `make test` set the machine up first if needed.

SHELL := /bin/bash
SWIFT ?= swift
BOARD ?= auto
LIBRARY ?=
BIN_PATH = $(shell $(SWIFT) build --show-bin-path)
SETUP_STAMP = tools/setup --check

.PHONY: all setup build run test lint unit-test web-e2e hil powercut powercut-record bench format fuzz clean deb

all: build

# Installs system dependencies once (idempotent; re-run when tools/setup changes).
setup:
	@$(SETUP_STAMP) || tools/setup

build: setup
	$(SWIFT) build

# Runs the appliance; on a machine without camera hardware, the simulated board with the
# console on this terminal. LIBRARY=DIR picks the photo library.
run: build
	$(BIN_PATH)/pinhole run --board $(BOARD) $(if $(LIBRARY),--library $(LIBRARY),)

# Every test: unit and end-to-end tests, then the real-kernel VM test and a short power-cut
# series (both skipped with a message where QEMU cannot run).
test: lint unit-test web-e2e hil powercut
	@tools/test-summary .build/unit-test.log

unit-test: setup
	$(SWIFT) build --build-tests
	set -o pipefail; $(SWIFT) test --skip-build --disable-swift-testing 2>&1 | tee .build/unit-test.log

# The web gallery in a real browser (headless Chromium driven by python3-selenium) against
# `pinhole run` on the simulated board; screenshots at phone width in .build/web/.
web-e2e: build
	tools/web-e2e --bin $(BIN_PATH)

# The VM test runs under emulation (TCG), whose timing varies with the machine's load. It has no
# retry (issue 22): a run passes only when every check it declares (tools/vm/guest/*.checks) ran
# and passed. What a loaded host stretched is fixed at its cause: udevadm settle waits for its
# event; the debounce check asks gpio-sim for a 300 ms period (a loaded guest's glitches were
# 65-78 ms) and holds a press until it is reported; a capture waits as long as the watchdog takes
# to restart a slow vimc; the shutter is pressed once frames flow; the watchdog-restart check
# waits for systemd's line; the VM's time limits (tools/hil, tools/hil-service) are sized from
# runs at load 8 and 12-17.
hil: build
	@if [ ! -x tools/hil ]; then echo 'hil: skipped: tools/hil is not in this checkout'; exit 0; fi; \
	tools/hil
	@# The installed .deb as a non-root systemd service (tools/hil-service).
	@if [ ! -x tools/hil-service ]; then exit 0; fi; \
	tools/hil-service --no-build

# The Debian package, Swift runtime linked statically: .build/deb/pinhole_VERSION_ARCH.deb,
# checked by lintian (tools/deb/build; the version from git describe).
deb: setup
	tools/deb/build

# Power cuts below the page cache (dm-flakey drop_writes) in the VM of `make hil`; prints
# `powercut: N cuts, A acknowledged, L lost, fsck clean K/N` last. CUTS=N (default 20),
# POWERCUT_SEED=S repeats a series. Skipped with a message where QEMU cannot run.
CUTS ?= 20
powercut: build
	@tools/powercut --no-build --cuts $(CUTS) $(if $(POWERCUT_SEED),--seed $(POWERCUT_SEED),)

# Cuts during recordings, longer than `make test`'s series (one targeted recording cut there):
# RECORD_CUTS (default 30) cuts, about a third of the random ones' work a recording; each
# interrupted clip must be adopted with every frame durable before the cut less one fragment.
RECORD_CUTS ?= 30
powercut-record: build
	@POWERCUT_RECORD_SHARE=0.35 tools/powercut --no-build --cuts $(RECORD_CUTS) \
		$(if $(POWERCUT_SEED),--seed $(POWERCUT_SEED),)

# Benchmarks (release build); figures are ratios against references measured in the same run.
# SECTIONS from imaging capture library syncs memory burst web (all by default); library1m (a
# million generated rows, minutes) runs only when named: `make bench SECTIONS=library1m`.
# The thumbnail reference (Pillow-SIMD, else Pillow) is installed by `tools/setup --bench`.
# web: tools/web-bench (the gallery on a 10,000-photo library against nginx, wrk, the live
# view, idle memory, and 100 clients for 10 s during a timelapse).
bench: setup
	$(SWIFT) build -c release
	PINHOLE_BENCH_PYTHON=$$(tools/setup --bench) \
		$$($(SWIFT) build -c release --show-bin-path)/pinhole-bench $(SECTIONS)
	@if [ -z "$(SECTIONS)" ] || [[ " $(SECTIONS) " == *" web "* ]]; then \
		tools/web-bench --bin $$($(SWIFT) build -c release --show-bin-path); fi

# Style and structure, before any test: `swift format lint --strict` with the checked-in
# .swift-format (zero findings, `///` on all public API), and Package.swift declaring exactly
# what each target imports, and only the POSIX layer reading errno or calling statvfs.
lint:
	$(SWIFT) format lint --strict --recursive --parallel --configuration .swift-format Sources Tests Package.swift
	tools/check-package-graph
	tools/check-posix-layer
	tools/check-path-types

format:
	swift format --in-place --recursive --configuration .swift-format Sources Tests Package.swift

fuzz: setup
	tools/fuzz

clean:
	rm -rf .build
