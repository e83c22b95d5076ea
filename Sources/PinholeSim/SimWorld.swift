// The simulated world shared by the simulated cameras: the scene, the torch light and scripted faults.

import PinholeCore

/// Scene and faults, changed by scripts (`sim scene …`, `sim fault …`) and read by cameras.
/// Lives on the event loop.
public final class SimWorld {
    /// The scene every camera sees.
    public var scene: SimScene
    /// Camera ids whose frames stop arriving until the camera is restarted.
    public var stalledCameras: Set<String> = []
    /// Camera ids that send no frame at all, restarted or not (a dead module).
    public var deadCameras: Set<String> = []
    /// How long a stop of each camera (by id) hangs before it returns (a sensor or driver that
    /// takes seconds to stop, as libcamera did under CPU starvation). Absent: it returns at once.
    public var stopHangs: [String: Duration] = [:]
    /// Whether the torch LED is lit now (wired to the board's torch output by whoever builds
    /// the simulated board); nil: there is no torch.
    public var torchIsLit: (() -> Bool)?
    /// Illuminance the lit torch adds to what a back camera sees, in lux.
    public var torchLux = 250.0

    /// Creates a world.
    public init(scene: SimScene = .standard) { self.scene = scene }

    /// The scene as a camera facing `position` sees it now (the torch lights the back side).
    public func scene(seenFrom position: CameraPosition) -> SimScene {
        guard position == .back, torchIsLit?() == true else { return scene }
        var lit = scene
        lit.lux += torchLux
        return lit
    }

    /// The brightest scene the simulator models, in lux (direct sunlight is about 120 000).
    public static let maximumLux = 1_000_000.0

    /// Sets the light level, clamped to 0 … `maximumLux` (NaN counts as dark).
    public func setLux(_ lux: Double) {
        scene.lux = lux.isNaN ? 0 : min(Self.maximumLux, max(0, lux))
        scene.generation += 1
    }

    /// Stops frames from every camera in `ids` until each is restarted (a hung pipeline).
    public func stallCameras(_ ids: [String]) {
        stalledCameras.formUnion(ids)
    }

    /// Moves the scene: objects shift and change distance (a new subject), deterministically.
    public func changeScene() {
        scene.generation += 1
        let generation = scene.generation
        for index in scene.objects.indices {
            var object = scene.objects[index]
            object.rect.x = (object.rect.x + 0.23 * Double(index + generation)).truncatingRemainder(
                dividingBy: 0.75)
            object.distance = [0.5, 1.2, 3.0, 6.0][(index + generation) % 4]
            scene.objects[index] = object
        }
    }
}
