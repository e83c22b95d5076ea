// A simulated board for capture tests: virtual clock, simulated GPIO and cameras, real JPEG/EXIF, memory store.

import Foundation
import PinholeAppliance
import PinholeBoard
import PinholeCapture
import PinholeCore
import PinholeImaging
import PinholeSim
import XCTest
import SystemPackage

/// Keeps stored photos in memory.
final class MemoryPhotoStore: PhotoStore, @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [(jpeg: [UInt8], metadata: PhotoMetadata)] = []

    func store(jpeg: [UInt8], metadata: PhotoMetadata) throws -> SavedPhoto {
        lock.lock()
        defer { lock.unlock() }
        stored.append((jpeg, metadata))
        return SavedPhoto(id: "photo-\(stored.count)", file: FilePath("/memory/\(stored.count).jpg"))
    }

    func photoCount() throws -> Int { lock.lock(); defer { lock.unlock() }; return stored.count }

    func freeBytes() -> Int64? { nil }

    /// The JPEG bytes of the n-th photo (1-based, as in its id).
    func jpeg(_ id: String) -> [UInt8]? {
        lock.lock()
        defer { lock.unlock() }
        guard let n = Int(id.dropFirst("photo-".count)), n >= 1, n <= stored.count else { return nil }
        return stored[n - 1].jpeg
    }
}

/// The simulated board, small stills so that tests stay fast.
final class CaptureTestRig {
    let loop = EventLoop.virtual()
    let world = SimWorld()
    let gpio: SimulatedGPIO
    let cameras: SimulatedCameraProvider
    let appliance: Appliance
    let store = MemoryPhotoStore()
    let board: BoardProfile
    var events: [ApplianceEvent] = []

    /// The torch line on the simulated board.
    let torchLine = "GPIO26"
    /// The error LED line.
    let errorLine = "GPIO25"

    static func small(_ spec: SimCameraSpec) -> SimCameraSpec {
        var small = spec
        small.pixelArraySize = PixelSize(width: 640, height: 480)
        return small
    }

    init(specs: [SimCameraSpec] = [small(.back), small(.front)], settingsFile: SettingsFile? = nil) throws {
        board = try BuiltInBoards.simulated()
        gpio = SimulatedGPIO(loop: loop, lineNames: board.lineNames)
        cameras = SimulatedCameraProvider(loop: loop, world: world, specs: specs)
        appliance = Appliance(
            loop: loop, board: board, gpio: gpio, cameras: cameras,
            encoder: PhotoEncoder(quality: 85), store: store)
        let torch = torchLine
        world.torchIsLit = { [gpio] in gpio.outputValue(torch) ?? false }
        appliance.observe { [weak self] event in self?.events.append(event) }
        appliance.settingsFile = settingsFile
        try appliance.start()
    }

    var engine: CaptureEngine { appliance.engine }

    /// The running simulated camera.
    var camera: SimulatedCamera { cameras.openCamera(engine.current!.id)! }

    /// Captures now (or at `pressedAt`) and runs the loop until the photo is saved.
    func capture(pressedAt: Instant? = nil, file: StaticString = #filePath, line: UInt = #line) throws
        -> CaptureResult
    {
        var outcome: Result<CaptureResult, Error>?
        appliance.capture(pressedAt: pressedAt) { outcome = $0 }
        var waited = 0
        while outcome == nil && waited < 200 {
            loop.advance(by: .milliseconds(10))
            waited += 1
        }
        return try XCTUnwrap(outcome, "capture never completed", file: file, line: line).get()
    }

    /// Triggers a focus scan and runs the loop until it ends.
    func triggerFocus(file: StaticString = #filePath, line: UInt = #line) throws -> AutofocusState {
        var state: AutofocusState?
        try engine.focus.trigger { state = $0 }
        var waited = 0
        while state == nil && waited < 1000 {
            loop.advance(by: .milliseconds(10))
            waited += 1
        }
        return try XCTUnwrap(state, "the scan never ended", file: file, line: line)
    }

    /// The EXIF of a saved photo.
    func exif(_ result: CaptureResult) throws -> PhotoMetadata {
        try ExifReader.read(jpeg: try XCTUnwrap(store.jpeg(result.photo.id)))
    }
}

extension PhotoEncoder: StillEncoder {}
