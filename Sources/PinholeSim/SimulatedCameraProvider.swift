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

    /// An open camera by id (for tests).
    public func openCamera(_ id: String) -> SimulatedCamera? { open[id] }
}
