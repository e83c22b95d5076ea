// A simulated appliance on a virtual clock with an interactive console, for menu tests.

import PinholeAppliance
import PinholeBoard
import PinholeCapture
import PinholeConsole
import PinholeCore
import PinholeImaging
import PinholeSim
import PinholeSimBoard
import XCTest
import SystemPackage

/// Stores photos in memory (called from the loop's worker thread, so guarded by a mutex).
final class MemoryStore: PhotoStore, @unchecked Sendable {
    private var mutex = pthread_mutex_t()
    private var count = 0

    init() { pthread_mutex_init(&mutex, nil) }

    private func locked<T>(_ body: () -> T) -> T {
        pthread_mutex_lock(&mutex)
        defer { pthread_mutex_unlock(&mutex) }
        return body()
    }

    func store(jpeg: [UInt8], metadata: PhotoMetadata) throws -> SavedPhoto {
        let n = locked {
            count += 1
            return count
        }
        return SavedPhoto(id: "photo\(n)", file: FilePath("/mem/photo\(n).jpg"))
    }

    func photoCount() throws -> Int { locked { count } }
    func freeBytes() -> Int64? { 5 * 1024 * 1024 * 1024 }
}

/// Encodes nothing: the menu tests do not need JPEG bytes.
struct NullEncoder: StillEncoder {
    func encode(image: RawImage, metadata: PhotoMetadata) throws -> [UInt8] { [0xFF, 0xD8, 0xFF, 0xD9] }
}

/// Collects bytes or lines written by a console.
final class Sink<Element> {
    var items: [Element] = []
    func take() -> [Element] {
        defer { items.removeAll() }
        return items
    }
}

/// The appliance, its line-mode console and an interactive console writing to a terminal
/// emulator.
final class ConsoleHarness {
    let loop = EventLoop.virtual()
    let gpio: SimulatedGPIO
    let appliance: Appliance
    let commands: LineModeConsole
    let console: InteractiveConsole
    let written = Sink<UInt8>()
    let lines = Sink<String>()
    let terminal = TerminalEmulator()

    init(
        quietFocus: Bool = false, colour: Bool = false,
        library: (@Sendable ([String]) throws -> String)? = nil,
        reader: LibraryReading? = nil, simulated: Bool = false,
        configure: (LineModeConsole) -> Void = { _ in }
    ) throws {
        let board = try BuiltInBoards.simulated()
        gpio = SimulatedGPIO(loop: loop, lineNames: board.lineNames)
        // Small sensors: the simulated renderer draws every still in full, and these tests
        // are about the console, not the pixels.
        var back = SimCameraSpec.back
        back.pixelArraySize = PixelSize(width: 320, height: 240)
        var front = SimCameraSpec.front
        front.pixelArraySize = PixelSize(width: 320, height: 240)
        let world = SimWorld()
        let cameras = SimulatedCameraProvider(loop: loop, world: world, specs: [back, front])
        appliance = Appliance(
            loop: loop, board: board, gpio: gpio, cameras: cameras, encoder: NullEncoder(),
            store: MemoryStore())
        try appliance.start()
        let lines = self.lines
        // `simulated`: the `sim …` commands drive the board's simulated lines.
        let simulation = simulated ? SimBoardControl(gpio: gpio, world: world, board: board, loop: loop) : nil
        commands = LineModeConsole(appliance: appliance, simulation: simulation, library: library) {
            lines.items.append($0)
        }
        configure(commands)
        if quietFocus {
            // Continuous AF renders viewfinder frames to measure sharpness; tests that let
            // minutes of virtual time pass do not need it.
            // Set on the engine, not by a command: a locked console may not change the AF mode.
            try appliance.engine.focus.setMode(.manual)
            loop.advance(by: .milliseconds(10))
            _ = lines.take()
        }
        let written = self.written
        console = InteractiveConsole(appliance: appliance, commands: commands, colour: colour) {
            written.items += $0
        }
        console.library = reader
        console.start()
        loop.advance(by: .milliseconds(100))
        drain()
    }

    /// Everything written since the last call, also fed to the terminal emulator.
    @discardableResult
    func drain() -> [UInt8] {
        let bytes = written.take()
        terminal.feed(bytes)
        return bytes
    }

    /// Types `text`, lets `settle` pass, and returns the terminal's screen text.
    @discardableResult
    func type(_ text: String, settle: Duration = .milliseconds(100)) -> String {
        console.receive(Array(text.utf8))
        loop.advance(by: settle)
        loop.finishLongWork()  // library commands and page loads run on the long-work worker
        drain()
        return terminal.text
    }

    /// Sends `line` to line mode, lets `wait` pass on the loop's clock, and returns the lines
    /// answered meanwhile (answers and events), joined by newlines.
    func ask(_ line: String, wait: Duration) -> String {
        commands.receive(line: line)
        loop.advance(by: wait)
        return lines.take().joined(separator: "\n")
    }

    /// Lets time pass.
    func wait(_ duration: Duration) {
        loop.advance(by: duration)
        loop.finishLongWork()
        drain()
    }

    deinit { appliance.shutdown() }
}
