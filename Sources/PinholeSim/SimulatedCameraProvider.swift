// The simulated board's cameras.

import PinholeCore

/// Provides the simulated cameras (by default a back HQ-like camera and a front camera).
public final class SimulatedCameraProvider: CameraProvider {
    private let loop: EventLoop
    /// The world the cameras see.
    public let world: SimWorld
    /// The cameras' specs.
    public let specs: [SimCameraSpec]
    private var open: [String: SimulatedCamera] = [:]
    /// Camera ids whose open does not return (a sensor or driver that does not answer).
    public private(set) var hangingOpens: Set<String> = []
    /// Opens under way on a hanging camera: they finish when the hang ends.
    private var hungOpens: [(id: String, completion: (Result<any CameraDevice, any Error>) -> Void)] = []

    /// Creates a provider.
    public init(loop: EventLoop, world: SimWorld, specs: [SimCameraSpec] = [.back, .front]) {
        self.loop = loop
        self.world = world
        self.specs = specs
    }

    /// The cameras present now, as they describe themselves.
    public func cameras() throws -> [CameraInfo] { specs.map(\.info) }

    /// Opens the camera called `id` for exclusive use.
    public func open(id: String) throws -> any CameraDevice {
        guard let spec = specs.first(where: { $0.id == id }) else {
            throw CameraError.unknownCamera(id, available: specs.map(\.id))
        }
        if let camera = open[id], !camera.isClosed { return camera }
        let camera = SimulatedCamera(spec: spec, loop: loop, world: world)
        open[id] = camera
        return camera
    }

    /// Opening the camera `id` without blocking: at once, or, while the camera hangs at open,
    /// not until `endOpenHang(id)`.
    public func open(id: String, then completion: @escaping (Result<any CameraDevice, any Error>) -> Void) {
        guard hangingOpens.contains(id) else { return completion(Result { try open(id: id) }) }
        hungOpens.append((id, completion))
    }

    /// Makes every later open of `id` hang until `endOpenHang(id)` (`open(id:then:)` does not
    /// complete meanwhile; `open(id:)` is the blocking call and is not simulated hanging).
    public func hangOpens(of id: String) { hangingOpens.insert(id) }

    /// Ends the hang of `id`: opens under way complete now (on the loop, in order).
    public func endOpenHang(_ id: String) {
        hangingOpens.remove(id)
        let finishing = hungOpens.filter { $0.id == id }
        hungOpens.removeAll { $0.id == id }
        for entry in finishing { entry.completion(Result { try open(id: id) }) }
    }

    /// Opens still hanging.
    public var hungOpenCount: Int { hungOpens.count }

    /// An open camera by id (for tests).
    public func openCamera(_ id: String) -> SimulatedCamera? { open[id] }
}
