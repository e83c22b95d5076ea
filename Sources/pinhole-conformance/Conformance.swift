// `pinhole-conformance`: runs the backend contract checks against real drivers (the VM test).

import ArgumentParser
import PinholeConformance

/// The root command: one subcommand per checked backend.
@main
struct Conformance: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pinhole-conformance",
        abstract: "Check Pinhole's hardware backends against real (or kernel-simulated) devices.",
        discussion: "Each step prints one `ok …` or `FAIL …` line; the status is 1 when any step failed.",
        subcommands: [GPIOCheck.self, CameraCheck.self])
}

/// Runs the GPIO contract suite: the libgpiod backend on gpio-sim lines.
struct GPIOCheck: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "gpio",
        abstract: "Check the libgpiod backend against gpio-sim lines (the VM integration test).",
        discussion: "Needs a live gpio-sim chip carrying the named lines; drives them through sysfs.")

    @Option(help: "Input line checked without debounce.")
    var bouncy = "GPIO17"

    @Option(help: "Input line checked with kernel debounce.")
    var debounced = "GPIO27"

    @Option(help: "Kernel debounce period asked for the debounced input, in milliseconds.")
    var debounceMs = GPIOSimHarness.debounceMilliseconds

    @Option(help: "Output line checked active-high.")
    var output = "GPIO24"

    @Option(help: "Output line checked active-low.")
    var activeLowOutput = "GPIO25"

    func run() throws {
        let lines = GPIOContract.Lines(
            bouncy: bouncy, debounced: debounced, output: output, activeLowOutput: activeLowOutput)
        let contract = GPIOContract(
            lines: lines, harness: GPIOSimHarness(), debounce: .milliseconds(debounceMs))
        if !contract.run(report: { print($0) }) { throw ExitCode(1) }
    }
}

/// Runs the camera contract suite: the libcamera backend on the first camera libcamera lists (vimc in the VM).
struct CameraCheck: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "camera",
        abstract: "Check the libcamera backend against a camera (vimc in the VM integration test).",
        discussion: "Configures, streams, sets controls and restarts the camera; it must not be in use.")

    @Option(help: "The libcamera id of the camera to check (default: the first listed).")
    var camera: String?

    func run() throws {
        let passed = CameraContract(harness: LibcameraHarness(), cameraID: camera).run { print($0) }
        if !passed { throw ExitCode(1) }
    }
}
