// swift-tools-version:6.1
// Pinhole: a camera appliance userland for Raspberry-Pi-class boards, and its simulated board.

import PackageDescription

let swift6: [SwiftSetting] = [.swiftLanguageMode(.v6)]

let package = Package(
    name: "Pinhole",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "pinhole", targets: ["pinhole"]),
        .executable(name: "pinhole-bench", targets: ["PinholeBench"]),
        .executable(name: "pinhole-conformance", targets: ["pinhole-conformance"]),
        .executable(name: "pinhole-fuzz-commands", targets: ["pinhole-fuzz-commands"]),
        // The libcamera backend's C++ shim as a shared object of its own (libPinholeCamera.so):
        // `pinhole` loads it with dlopen only on a libcamera board (PinholeLinux/LibcameraShim.swift),
        // so the simulated board maps none of libcamera. The .deb ships it in /usr/lib/pinhole.
        .library(name: "PinholeCamera", type: .dynamic, targets: ["CameraShim"]),
        // The libav video shim likewise (libPinholeVideo.so): `pinhole` loads it with dlopen when
        // a recording, a clip read or `pinhole doctor` first needs it (PinholeLibav/LibavShim.swift),
        // so a process that never touches video maps none of libav. The .deb ships it beside it.
        .library(name: "PinholeVideo", type: .dynamic, targets: ["VideoShim"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser.git", exact: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log.git", exact: "1.16.2"),
        .package(url: "https://github.com/groue/GRDB.swift.git", exact: "7.10.0"),
        .package(url: "https://github.com/apple/swift-system.git", exact: "1.8.1"),
        // The web gallery's HTTP server (PinholeWeb). No traits: swift-configuration is not used.
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", exact: "2.28.1", traits: []),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.0"),
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-nio-extras.git", from: "1.35.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.0.0"),
    ],
    targets: [
        // C libraries, found through pkg-config. Only the shim targets and the Linux
        // backends import these.
        .systemLibrary(
            name: "CLibcamera", path: "Sources/CLibcamera", pkgConfig: "libcamera",
            providers: [.apt(["libcamera-dev"])]),
        .systemLibrary(
            name: "CGpiod", path: "Sources/CGpiod", pkgConfig: "libgpiod",
            providers: [.apt(["libgpiod-dev"])]),
        .systemLibrary(
            name: "CTurboJPEG", path: "Sources/CTurboJPEG", pkgConfig: "libturbojpeg",
            providers: [.apt(["libturbojpeg0-dev"])]),
        .systemLibrary(
            name: "CExif", path: "Sources/CExif", pkgConfig: "libexif",
            providers: [.apt(["libexif-dev"])]),
        // libxcrypt (crypt(3) with yescrypt) for the console PIN hash.
        .systemLibrary(
            name: "CCrypt", path: "Sources/CCrypt", pkgConfig: "libcrypt",
            providers: [.apt(["libcrypt-dev"])]),
        // FFmpeg's libavcodec, libavformat and libavutil (H.264 encoding, MP4 muxing).
        .systemLibrary(
            name: "CLibav", path: "Sources/CLibav", pkgConfig: "libavformat",
            providers: [.apt(["libavcodec-dev", "libavformat-dev", "libavutil-dev"])]),
        // adjtimex(2) (libc; not in Swift's Glibc module): is the clock synchronized.
        .systemLibrary(name: "CTimex", path: "Sources/CTimex"),
        // libcamera is C++ only: this target wraps it behind a plain C header. Built only into
        // the PinholeCamera shared object, never linked into an executable.
        .target(
            name: "CameraShim", dependencies: ["CLibcamera"], path: "Sources/CameraShim",
            // No Swift in it: without Swift's startup object (which references the runtime), the
            // .deb's static link puts no second Swift runtime into libPinholeCamera.so.
            linkerSettings: [.unsafeFlags(["-nostartfiles"])]),
        // The shim's header alone (its types and its function table), for the Swift side that
        // loads the shared object: no code, no link.
        .systemLibrary(name: "CameraShimInterface", path: "Sources/CameraShimInterface"),
        // libav's C API (macros, struct fields) behind a small plain C interface. Built only into
        // the PinholeVideo shared object, never linked into an executable.
        .target(
            name: "VideoShim", dependencies: ["CLibav"], path: "Sources/VideoShim",
            // No Swift in it, and no Swift startup object: see CameraShim.
            linkerSettings: [
                .linkedLibrary("avformat"), .linkedLibrary("avcodec"), .linkedLibrary("avutil"),
                .unsafeFlags(["-nostartfiles"]),
            ]),
        // The video shim's headers alone (its types and its function table ph_video_api), for
        // PinholeLibav, which loads the shared object: no code, no link.
        .systemLibrary(name: "VideoShimInterface", path: "Sources/VideoShimInterface"),

        // Linux calls Swift's Glibc module does not import (renameat2).
        .target(name: "CSystemCalls", path: "Sources/CSystemCalls"),
        // Sets the Swift runtime's global-executor hook, which the static runtime hides from dlsym.
        .target(name: "CExecutorHook", path: "Sources/CExecutorHook"),
        // A SQLite VFS over the default one that counts SQLite's sync calls into the POSIX
        // layer's sync counters (SyncCount); the library registers it before opening.
        .target(
            name: "CSQLiteSyncs", dependencies: ["CSystemCalls"], path: "Sources/CSQLiteSyncs",
            linkerSettings: [.linkedLibrary("sqlite3")]),
        // The one POSIX layer, on swift-system: EINTR retried in one place (never for close),
        // durable writes and no-replace renames, the one lock type and the one thread helper.
        .target(
            name: "PinholeSystem",
            dependencies: ["CSystemCalls", .product(name: "SystemPackage", package: "swift-system")],
            swiftSettings: swift6),
        // Protocols, values, the clock and the event loop. No backend.
        .target(
            name: "PinholeCore",
            dependencies: ["PinholeSystem", .product(name: "SystemPackage", package: "swift-system")],
            swiftSettings: swift6),
        // Simulated hardware: cameras with a scene, lens and exposure model; GPIO lines
        // with bounce. Used by the `sim` board and by the tests.
        .target(
            name: "PinholeSim",
            dependencies: ["PinholeCore", .product(name: "SystemPackage", package: "swift-system")],
            swiftSettings: swift6),
        // The simulated board's `sim …` hooks (presses with bounce, tilt, triggers, scene,
        // faults): used by `pinhole run --board sim` and by the command fuzzer.
        .target(
            name: "PinholeSimBoard",
            dependencies: [
                "PinholeAppliance", "PinholeBoard", "PinholeConsole", "PinholeCore", "PinholeSim",
            ],
            swiftSettings: swift6),
        // Real hardware backends: libcamera, libgpiod v2, termios serial ports.
        .target(
            name: "PinholeLinux",
            dependencies: [
                "PinholeCore", "PinholeSystem", "CameraShimInterface", "CGpiod", "CCrypt", "CTimex",
                .product(name: "SystemPackage", package: "swift-system"),
            ],
            swiftSettings: swift6),
        // JPEG encode/decode/scale with libjpeg-turbo, EXIF with libexif, orientation.
        .target(
            name: "PinholeImaging", dependencies: ["PinholeCore", "CTurboJPEG", "CExif"],
            swiftSettings: swift6),
        // The video backend: H.264 encoders and fragmented MP4 writers through libav.
        .target(
            name: "PinholeLibav",
            dependencies: [
                "PinholeCore", "PinholeSystem", "VideoShimInterface",
                .product(name: "SystemPackage", package: "swift-system"),
            ],
            swiftSettings: swift6),
        // The photo library store.
        .target(
            name: "PinholeLibrary",
            dependencies: [
                "PinholeCore", "PinholeImaging", "PinholeLibav", "PinholeSystem", "CSQLiteSyncs",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "SystemPackage", package: "swift-system"),
            ],
            swiftSettings: swift6),
        // `library …` as words: help text, argument parsing, text and JSON answers. Used by
        // `pinhole library` and by the console's line mode (through `pinhole run`).
        .target(
            name: "PinholeLibraryCommandLine",
            dependencies: [
                "PinholeCore", "PinholeImaging", "PinholeLibrary",
                .product(name: "SystemPackage", package: "swift-system"),
            ],
            swiftSettings: swift6),
        // The configuration file (pinhole.toml): reading it with file:line errors, and
        // editing one key of it in place (the console's Settings page).
        .target(
            name: "PinholeConfiguration",
            dependencies: [
                "PinholeCore", "PinholeSystem", .product(name: "SystemPackage", package: "swift-system"),
            ],
            swiftSettings: swift6),
        // The board's own parts: its profile (buttons, LEDs, cameras, triggers), the button,
        // chord and two-stage shutter state machines, LED patterns, tilt, and `pinhole doctor`.
        .target(
            name: "PinholeBoard",
            dependencies: [
                "PinholeCore", "PinholeImaging", .product(name: "SystemPackage", package: "swift-system"),
            ],
            swiftSettings: swift6),
        // The camera at work: the capture engine and machine, focus, metering, exposure, flash,
        // the photo and video pipelines, and camera standby and watchdog. Knows protocols only;
        // its settings file goes through PinholeSystem.
        .target(
            name: "PinholeCapture",
            dependencies: [
                "PinholeBoard", "PinholeCore", "PinholeImaging", "PinholeSystem",
                .product(name: "SystemPackage", package: "swift-system"),
            ],
            swiftSettings: swift6),
        // Shooting in the field without a hand on the camera: timelapse, trigger inputs, GPS,
        // clock trust and the storage policy, through the narrow UnattendedShooting seam.
        .target(
            name: "PinholeField",
            dependencies: [
                "PinholeBoard", "PinholeCapture", "PinholeCore", "PinholeImaging", "PinholeSystem",
                .product(name: "SystemPackage", package: "swift-system"),
            ],
            swiftSettings: swift6),
        // The appliance: the composition of board, capture and field parts on the event loop,
        // and its status. Knows protocols only: no backend, no library store, no configuration file.
        .target(
            name: "PinholeAppliance",
            dependencies: [
                "PinholeBoard", "PinholeCapture", "PinholeCore", "PinholeField", "PinholeImaging",
            ],
            swiftSettings: swift6),
        // The console: line mode and VT100 menu.
        .target(
            name: "PinholeConsole",
            dependencies: [
                "PinholeCore", "PinholeImaging", "PinholeAppliance", "PinholeBoard", "PinholeCapture",
                "PinholeField", "PinholeConfiguration",
                .product(name: "SystemPackage", package: "swift-system"),
            ],
            swiftSettings: swift6, plugins: ["PinholeCommandList"]),
        // Lists the console's command types from Sources/PinholeConsole/Commands (tools/command-list).
        .plugin(name: "PinholeCommandList", capability: .buildTool()),
        // The contract suites every backend must pass (GPIO, camera), over harnesses: run against
        // the simulated backends by PinholeConformanceTests and against the real drivers (gpio-sim,
        // vimc in the VM test) by `pinhole-conformance`. Not part of `pinhole`.
        .target(
            name: "PinholeConformance",
            dependencies: [
                "PinholeCore", "PinholeLinux", .product(name: "SystemPackage", package: "swift-system"),
            ],
            swiftSettings: swift6),
        // The web gallery and remote: an HTTP server (Hummingbird) on its own threads whose
        // handlers run the console's typed commands on the appliance's loop and read the
        // library through the menu's reading protocol.
        .target(
            name: "PinholeWeb",
            dependencies: [
                "PinholeCore", "PinholeConsole", "PinholeAppliance", "PinholeCapture", "PinholeImaging",
                "CExecutorHook", .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HummingbirdTLS", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "_NIOFileSystem", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "SystemPackage", package: "swift-system"),
            ],
            swiftSettings: swift6),
        // The executable: arguments, configuration, logging, wiring a board together.
        .executableTarget(
            name: "pinhole",
            dependencies: [
                "PinholeCore", "PinholeSim", "PinholeLinux", "PinholeImaging",
                "PinholeLibrary", "PinholeLibraryCommandLine", "PinholeConfiguration",
                "PinholeAppliance", "PinholeBoard", "PinholeCapture", "PinholeField", "PinholeConsole",
                "PinholeSystem", "PinholeSimBoard", "PinholeWeb", "PinholeLibav",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"), "CTimex",
                .product(name: "SystemPackage", package: "swift-system"),
            ],
            swiftSettings: swift6,
            // A release build links the Swift runtime and Foundation statically, as the .deb does
            // (tools/deb/build): only the parts the appliance uses are mapped, about 5.5 MB less
            // resident than the shared libraries (docs/BENCHMARKS.md, peak memory). The modules are
            // compiled as usual, so Foundation's static archives, which they do not autolink, are
            // named here. GNU ld (not gold, the default) packs the ~124,000 relative relocations of
            // the position-independent executable (DT_RELR: 24 KB instead of a 2.9 MB .rela.dyn the
            // loader reads whole at start; it marks the binary as needing glibc 2.36's
            // GLIBC_ABI_DT_RELR, so an older loader refuses it by name), and only the symbols the C
            // libraries need are exported, not the ~40,000 Swift symbols whose hash table and names
            // the loader touched at every lookup: 5 MB less resident at idle (docs/BENCHMARKS.md).
            linkerSettings: [
                .unsafeFlags(
                    [
                        "-static-stdlib", "-Xlinker", "--start-group", "-lFoundation",
                        "-lFoundationEssentials",
                        "-lFoundationInternationalization", "-lCoreFoundation", "-l_FoundationICU",
                        "-l_FoundationCShims", "-l_FoundationCollections", "-lswiftSynchronization",
                        "-Xlinker", "--end-group", "-use-ld=bfd", "-Xlinker", "-z", "-Xlinker",
                        "pack-relative-relocs", "-Xlinker", "--no-export-dynamic",
                    ], .when(configuration: .release))
            ],
            plugins: ["PinholeVersion"]),
        // Writes the `git describe` version (tools/version) into the executable at build time.
        .plugin(name: "PinholeVersion", capability: .buildTool()),
        // Runs the conformance checks against the real backends (the VM test).
        .executableTarget(
            name: "pinhole-conformance",
            dependencies: [
                "PinholeConformance", .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: swift6),
        // The line-mode command fuzzer (every form of `help --json`, hostile arguments, a
        // simulated appliance on virtual time): replayed by the tests, run at scale by
        // `pinhole-fuzz-commands` (tools/fuzz commands).
        .target(
            name: "PinholeCommandFuzz",
            dependencies: [
                "PinholeConsole", "PinholeAppliance", "PinholeBoard", "PinholeCapture", "PinholeSim",
                "PinholeSimBoard", "PinholeCore", "PinholeImaging", "PinholeLibrary",
                "PinholeLibraryCommandLine",
                .product(name: "SystemPackage", package: "swift-system"),
            ],
            swiftSettings: swift6),
        .executableTarget(
            name: "pinhole-fuzz-commands", dependencies: ["PinholeCommandFuzz"], swiftSettings: swift6),
        .executableTarget(
            name: "PinholeBench",
            dependencies: [
                "PinholeCore", "PinholeSim", "PinholeImaging", "PinholeLibrary",
                "PinholeAppliance", "PinholeBoard", "PinholeCapture", "PinholeSystem", "PinholeLibav",
                .product(name: "SystemPackage", package: "swift-system"),
                // The library benchmarks' raw-SQLite reference.
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            path: "Sources/PinholeBench", swiftSettings: swift6),

        // Runs the real tools (ffprobe, exiftool, djpeg, curl, the built pinhole) for the tests, one way.
        .target(name: "PinholeTestTools", path: "Tests/PinholeTestTools", swiftSettings: swift6),
        .testTarget(
            name: "PinholeCoreTests",
            dependencies: ["PinholeCore", .product(name: "SystemPackage", package: "swift-system")],
            swiftSettings: swift6),
        .testTarget(
            name: "PinholeSystemTests",
            dependencies: ["PinholeSystem", .product(name: "SystemPackage", package: "swift-system")],
            swiftSettings: swift6),
        .testTarget(
            name: "PinholeImagingTests", dependencies: ["PinholeImaging", "PinholeCore", "PinholeTestTools"],
            swiftSettings: swift6),
        .testTarget(
            name: "PinholeLibraryTests",
            dependencies: [
                "PinholeLibrary", "PinholeLibraryCommandLine", "PinholeImaging", "PinholeCore",
                "PinholeSystem", "PinholeTestTools", .product(name: "SystemPackage", package: "swift-system"),
                .product(name: "GRDB", package: "GRDB.swift"),
                // The crash and process tests run the built `pinhole` (built first, never stale).
                "pinhole",
            ],
            swiftSettings: swift6),
        .testTarget(
            name: "PinholeLibavTests",
            dependencies: [
                "PinholeLibav", "PinholeCore", "PinholeAppliance", "PinholeCapture", "PinholeSim",
                "PinholeLibrary", "PinholeImaging", "PinholeTestTools",
                .product(name: "SystemPackage", package: "swift-system"),
            ],
            swiftSettings: swift6),
        .testTarget(
            name: "PinholeSimTests", dependencies: ["PinholeSim", "PinholeCore"], swiftSettings: swift6),
        .testTarget(
            name: "PinholeApplianceTests",
            dependencies: [
                "PinholeAppliance", "PinholeBoard", "PinholeCapture", "PinholeField", "PinholeSim",
                "PinholeCore", "PinholeImaging", "PinholeSystem", "PinholeTestTools",
                .product(name: "SystemPackage", package: "swift-system"),
            ],
            swiftSettings: swift6),
        .testTarget(
            name: "PinholeConsoleTests",
            dependencies: [
                "PinholeConsole", "PinholeCommandFuzz", "PinholeConfiguration", "PinholeAppliance",
                "PinholeBoard", "PinholeCapture", "PinholeField", "PinholeSim", "PinholeSimBoard",
                "PinholeCore", "PinholeImaging", .product(name: "SystemPackage", package: "swift-system"),
            ],
            swiftSettings: swift6),
        // The contract suites against the simulated backends (the real ones run them in the VM).
        .testTarget(
            name: "PinholeConformanceTests",
            dependencies: ["PinholeConformance", "PinholeSim", "PinholeCore"],
            swiftSettings: swift6),
        .testTarget(
            name: "PinholeWebTests",
            dependencies: [
                "PinholeWeb", "PinholeCore", "PinholeConsole", "PinholeConfiguration", "PinholeTestTools",
                .product(name: "SystemPackage", package: "swift-system"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            swiftSettings: swift6),
        // Runs the built `pinhole`: depending on the executable makes `swift build --build-tests`
        // (and `swift test`) build it first, so these tests never run a stale binary.
        .testTarget(
            name: "EndToEndTests",
            dependencies: ["PinholeImaging", "PinholeCommandFuzz", "PinholeTestTools", "pinhole"],
            swiftSettings: swift6),
        .testTarget(
            name: "PinholeLinuxTests",
            dependencies: [
                "PinholeLinux", "PinholeConformance", "PinholeCore", "PinholeAppliance", "PinholeBoard",
                "PinholeCapture", "PinholeField", "PinholeSim", "PinholeImaging", "PinholeSystem",
                "PinholeTestTools", .product(name: "SystemPackage", package: "swift-system"),
            ],
            swiftSettings: swift6),
    ],
    cxxLanguageStandard: .cxx17
)
