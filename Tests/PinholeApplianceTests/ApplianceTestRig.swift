// A simulated board, small simulated cameras, and an in-memory store for appliance tests.

import PinholeAppliance
import PinholeBoard
import PinholeCapture
import PinholeCore
import PinholeImaging
import PinholeSim
import XCTest
import SystemPackage

#if canImport(Glibc)
    import Glibc
#endif

/// Stores photos in memory (thread-safe: `store` runs on the loop's worker thread).
final class MemoryStore: PhotoStore, @unchecked Sendable {
    private var mutex = pthread_mutex_t()
    private var saved: [PhotoMetadata] = []
    private var free: Int64

    init(freeBytes: Int64 = 8 << 30) {
        free = freeBytes
        pthread_mutex_init(&mutex, nil)
    }

    private func locked<T>(_ body: () -> T) -> T {
        pthread_mutex_lock(&mutex)
        defer { pthread_mutex_unlock(&mutex) }
        return body()
    }

    func store(jpeg: [UInt8], metadata: PhotoMetadata) throws -> SavedPhoto {
        locked {
            saved.append(metadata)
            return SavedPhoto(id: "P\(saved.count)", file: FilePath("/memory/P\(saved.count).jpg"))
        }
    }

    func photoCount() throws -> Int { locked { saved.count } }
    func freeBytes() -> Int64? { locked { free } }
    func setFreeBytes(_ bytes: Int64) { locked { free = bytes } }
    var photos: [PhotoMetadata] { locked { saved } }
}

/// Returns a stand-in for a JPEG without encoding.
struct NullEncoder: StillEncoder {
    func encode(image: RawImage, metadata: PhotoMetadata) throws -> [UInt8] { [0xFF, 0xD8, 0xFF, 0xD9] }
}

/// The simulated board's profile with tiny cameras, a virtual loop and an appliance.
final class ApplianceRig {
    let loop: EventLoop
    let board: BoardProfile
    let gpio: SimulatedGPIO
    let store: MemoryStore
    let cameras: SimulatedCameraProvider
    private(set) var appliance: Appliance
    var buttonEvents: [(ButtonFunction, ButtonEvent)] = []

    static let smallBack = SimCameraSpec(
        id: "test/imx477@1a", model: "imx477", position: .back,
        pixelArraySize: PixelSize(width: 64, height: 48), focusable: true)
    static let smallFront = SimCameraSpec(
        id: "test/ov5647@36", model: "ov5647", position: .front,
        pixelArraySize: PixelSize(width: 64, height: 48), focusable: false)

    init(
        board: BoardProfile? = nil, gpio: SimulatedGPIO? = nil, loop: EventLoop? = nil,
        store: MemoryStore = MemoryStore(), start: Bool = true,
        specs: [SimCameraSpec] = [ApplianceRig.smallBack, ApplianceRig.smallFront],
        photoStore: (any PhotoStore)? = nil
    ) throws {
        let loop = loop ?? EventLoop.virtual()
        let board = try board ?? BuiltInBoards.simulated()
        self.loop = loop
        self.board = board
        self.gpio = gpio ?? SimulatedGPIO(loop: loop, lineNames: board.lineNames)
        self.store = store
        cameras = SimulatedCameraProvider(
            loop: loop, world: SimWorld(), specs: specs)
        appliance = Appliance(
            loop: loop, board: board, gpio: self.gpio, cameras: cameras, encoder: NullEncoder(),
            store: photoStore ?? store)
        appliance.observe { [weak self] event in
            if case .button(let function, let button) = event {
                self?.buttonEvents.append((function, button))
            }
        }
        if start { try appliance.start() }
        loop.advance(by: .milliseconds(200))  // frames start arriving
    }

    /// The line a button is wired to.
    func line(_ function: ButtonFunction) -> String { board.buttons[function]!.line }

    /// The line an output is wired to.
    func line(_ function: OutputFunction) -> String { board.outputs[function]!.line }

    /// Starts holding a button down with `bounce` chatter transitions.
    func hold(_ function: ButtonFunction, bounce: Int = 0) {
        chatter(line(function), ending: true, bounce: bounce)
    }

    /// Lets go of a button with `bounce` chatter transitions.
    func release(_ function: ButtonFunction, bounce: Int = 0) {
        chatter(line(function), ending: false, bounce: bounce)
    }

    private func chatter(_ name: String, ending active: Bool, bounce: Int) {
        for index in 0..<(bounce * 2) {
            gpio.drive(name, active: index % 2 == 0 ? active : !active)
            loop.advance(by: .microseconds(300))
        }
        gpio.drive(name, active: active)
    }

    /// Times (ms since the loop's start) of the button events of one function and kind.
    func events(_ function: ButtonFunction) -> [ButtonEvent] {
        buttonEvents.filter { $0.0 == function }.map(\.1)
    }

    /// Output changes of one line as "on@ms"/"off@ms".
    func history(_ function: OutputFunction) -> [String] {
        let name = line(function)
        return gpio.history.filter { $0.line == name }.map {
            "\($0.value ? "on" : "off")@\($0.time.nanoseconds / 1_000_000)"
        }
    }
}

extension Instant {
    /// Milliseconds since the virtual loop's start.
    var ms: Int64 { nanoseconds / 1_000_000 }
}
