// The synthetic scene simulated cameras look at: objects at distances, and a light level.

import PinholeCore

/// One object in the simulated scene: a textured rectangle at a distance.
public struct SimObject: Sendable, Hashable {
    /// A name for scripts and tests.
    public var name: String
    /// Where it appears, in normalized frame coordinates.
    public var rect: NormalizedRect
    /// Distance from the camera in metres (the in-focus lens position is 1 / distance dioptres).
    public var distance: Double
    /// Mean reflectance 0…1.
    public var reflectance: Double
    /// Texture contrast 0…1 (stripes that blur away when out of focus).
    public var texture: Double
    /// Texture period as a fraction of the frame width.
    public var period: Double
    /// Chroma offsets (Cb, Cr) in −0.5…0.5.
    public var chroma: (Double, Double)

    /// Creates an object.
    public init(
        name: String, rect: NormalizedRect, distance: Double, reflectance: Double,
        texture: Double, period: Double, chroma: (Double, Double)
    ) {
        self.name = name
        self.rect = rect
        self.distance = distance
        self.reflectance = reflectance
        self.texture = texture
        self.period = period
        self.chroma = chroma
    }

    /// Whether the two are equal.
    public static func == (lhs: SimObject, rhs: SimObject) -> Bool {
        lhs.name == rhs.name && lhs.rect == rhs.rect && lhs.distance == rhs.distance
            && lhs.reflectance == rhs.reflectance && lhs.texture == rhs.texture && lhs.period == rhs.period
            && lhs.chroma == rhs.chroma
    }

    /// Hashes what `==` compares.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(name)
        hasher.combine(distance)
    }
}

/// The whole scene: a background, objects in front of it (later ones in front), and the light.
public struct SimScene: Sendable, Hashable {
    /// Scene illuminance in lux.
    public var lux: Double
    /// Background (at `backgroundDistance`).
    public var background: SimObject
    /// Objects, back to front.
    public var objects: [SimObject]
    /// Incremented on every scripted change, so observers can tell scenes apart.
    public var generation: Int = 0

    /// Creates a scene.
    public init(lux: Double, background: SimObject, objects: [SimObject]) {
        self.lux = lux
        self.background = background
        self.objects = objects
    }

    /// The default scene: a far background, a house at 8 m on the left, a person at 2 m in the
    /// middle and a test chart at 0.4 m on the right, under 400 lux (a bright room).
    public static let standard = SimScene(
        lux: 400,
        background: SimObject(
            name: "background", rect: NormalizedRect(x: 0, y: 0, width: 1, height: 1),
            distance: 50, reflectance: 0.25, texture: 0.3, period: 0.08, chroma: (0.08, -0.05)),
        objects: [
            SimObject(
                name: "house", rect: NormalizedRect(x: 0.05, y: 0.25, width: 0.3, height: 0.5),
                distance: 8, reflectance: 0.35, texture: 0.6, period: 0.03, chroma: (-0.05, 0.12)),
            SimObject(
                name: "person", rect: NormalizedRect(x: 0.42, y: 0.2, width: 0.16, height: 0.7),
                distance: 2, reflectance: 0.18, texture: 0.5, period: 0.012, chroma: (-0.02, 0.05)),
            SimObject(
                name: "chart", rect: NormalizedRect(x: 0.68, y: 0.55, width: 0.25, height: 0.35),
                distance: 0.4, reflectance: 0.5, texture: 0.9, period: 0.006, chroma: (0, 0)),
        ])

    /// Mean reflectance over a region, sampled on a grid (what an AE meter sees).
    public func meanReflectance(in region: NormalizedRect = NormalizedRect(x: 0, y: 0, width: 1, height: 1))
        -> Double
    {
        var total = 0.0
        let columns = 32
        let rows = 24
        for row in 0..<rows {
            for column in 0..<columns {
                let x = region.x + region.width * (Double(column) + 0.5) / Double(columns)
                let y = region.y + region.height * (Double(row) + 0.5) / Double(rows)
                total += object(at: x, y).reflectance
            }
        }
        return total / Double(columns * rows)
    }

    /// The object seen at a normalized point (the frontmost one).
    public func object(at x: Double, _ y: Double) -> SimObject {
        for object in objects.reversed() where object.rect.contains(x, y) { return object }
        return background
    }

    /// The scene as a crop of the frame shows it (digital zoom): objects placed and sized
    /// relative to `crop`, texture periods scaled with it. The full frame is the scene itself.
    public func cropped(to crop: NormalizedRect) -> SimScene {
        guard crop != NormalizedRect(x: 0, y: 0, width: 1, height: 1), crop.width > 0, crop.height > 0 else {
            return self
        }
        func place(_ object: SimObject) -> SimObject {
            var placed = object
            placed.rect = NormalizedRect(
                x: (object.rect.x - crop.x) / crop.width, y: (object.rect.y - crop.y) / crop.height,
                width: object.rect.width / crop.width, height: object.rect.height / crop.height)
            placed.period = object.period / crop.width
            return placed
        }
        var scene = self
        scene.background = place(background)
        scene.objects = objects.map(place)
        return scene
    }
}
