// `pinhole board gpio-check`: checks the libgpiod backend against a gpio-sim chip (VM test).

import ArgumentParser
import PinholeLinux

extension BoardCommand {
    /// Runs the libgpiod conformance check on gpio-sim lines.
    struct GPIOCheck: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "gpio-check",
            abstract: "Check the libgpiod backend against gpio-sim lines (the VM integration test).",
            discussion: "Needs a live gpio-sim chip carrying the named lines; drives them through sysfs.")

        @Option(help: "Input line checked without debounce.")
        var bouncy = "GPIO17"

        @Option(help: "Input line checked with kernel debounce.")
        var debounced = "GPIO27"

        @Option(help: "Output line checked active-high.")
        var output = "GPIO24"

        @Option(help: "Output line checked active-low.")
        var activeLowOutput = "GPIO25"

        func run() throws {
            let lines = GPIOConformanceCheck.Lines(
                bouncy: bouncy, debounced: debounced, output: output,
                activeLowOutput: activeLowOutput)
            let passed = GPIOConformanceCheck(lines: lines).run { print($0) }
            if !passed { throw ExitCode(1) }
        }
    }
}
