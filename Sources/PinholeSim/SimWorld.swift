// The simulated world shared by the simulated cameras: the scene and scripted faults.

/// Scene and faults, changed by scripts (`sim scene …`, `sim fault …`) and read by cameras.
/// Lives on the event loop.
public final class SimWorld {
    /// The scene every camera sees.
    public var scene: SimScene
    /// Camera ids whose frames stop arriving until the camera is restarted.
    public var stalledCameras: Set<String> = []

    /// Creates a world.
    public init(scene: SimScene = .standard) { self.scene = scene }

    /// Sets the light level.
    public func setLux(_ lux: Double) {
        scene.lux = lux
        scene.generation += 1
    }

    /// Moves the scene: objects shift and change distance (a new subject), deterministically.
    public func changeScene() {
        scene.generation += 1
        let generation = scene.generation
        for index in scene.objects.indices {
            var object = scene.objects[index]
            object.rect.x = (object.rect.x + 0.23 * Double(index + generation)).truncatingRemainder(dividingBy: 0.75)
            object.distance = [0.5, 1.2, 3.0, 6.0][(index + generation) % 4]
            scene.objects[index] = object
        }
    }
}
