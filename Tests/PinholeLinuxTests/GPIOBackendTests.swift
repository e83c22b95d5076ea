// The libgpiod backend where no GPIO chip is present, and against gpio-sim where one is.

import PinholeConformance
import PinholeCore
@testable import PinholeLinux
import XCTest

#if canImport(Glibc)
    import Glibc
#endif

final class GPIOBackendTests: XCTestCase {
    func testWithoutChipsALineIsNotFoundAndTheMessageSaysNoChipIsPresent() {
        let gpio = LinuxGPIO(loop: EventLoop.virtual(), chips: [])
        XCTAssertThrowsError(try gpio.requestInput(InputLineConfig(name: "GPIO17")) { _ in }) { error in
            XCTAssertEqual(error as? GPIOError, .lineNotFound("GPIO17", searched: []))
            XCTAssertTrue("\(error)".contains("no GPIO chip is present"), "\(error)")
        }
        XCTAssertThrowsError(try gpio.requestOutput(name: "GPIO24", activeLow: false)) { error in
            XCTAssertEqual(error as? GPIOError, .lineNotFound("GPIO24", searched: []))
        }
    }

    func testAChipThatCannotBeOpenedIsReportedWithTheLineBeingLookedFor() {
        let gpio = LinuxGPIO(loop: EventLoop.virtual(), chips: ["/nonexistent/gpiochip9"])
        XCTAssertThrowsError(try gpio.requestOutput(name: "GPIO24", activeLow: false)) { error in
            guard case .system(let operation, let line, let code)? = error as? GPIOError else {
                return XCTFail("expected a system error, got \(error)")
            }
            XCTAssertEqual(operation, "open /nonexistent/gpiochip9")
            XCTAssertEqual(line, "GPIO24")
            XCTAssertEqual(code, .noSuchFileOrDirectory)
        }
    }

    func testChipScanIgnoresFilesThatAreNotGPIOCharacterDevices() throws {
        let directory = "/tmp/pinhole-gpio-scan-\(getpid())"
        XCTAssertEqual(mkdir(directory, 0o755), 0)
        defer {
            unlink(directory + "/gpiochip0")
            rmdir(directory)
        }
        let fd = open(directory + "/gpiochip0", O_CREAT | O_WRONLY, 0o644)
        XCTAssertGreaterThanOrEqual(fd, 0)
        close(fd)
        XCTAssertEqual(GPIOChip.devicePaths(in: directory), [])
        XCTAssertEqual(GPIOChip.devicePaths(in: directory + "/missing"), [])
    }

    /// Runs where gpio-sim carries Pi-named lines (the VM test sets it up); skipped elsewhere.
    func testConformanceAgainstGPIOSimWhenPresent() throws {
        guard GPIOSimHarness.gpioSimCarries("GPIO17") else {
            throw XCTSkip("no gpio-sim chip with a line named GPIO17")
        }
        var lines: [String] = []
        let lineNames = GPIOContract.Lines(
            bouncy: "GPIO17", debounced: "GPIO27", output: "GPIO24", activeLowOutput: "GPIO25")
        let contract = GPIOContract(
            lines: lineNames, harness: GPIOSimHarness(), debounce: GPIOSimHarness.debounce)
        let passed = contract.run { lines.append($0) }
        XCTAssertTrue(passed, lines.joined(separator: "\n"))
    }
}
