// Great-circle distances for location queries: a bounding box the index can use, and an SQL function.

import GRDB

#if canImport(Glibc)
    import Glibc
#endif

/// Distances on a spherical Earth (mean radius 6371.0088 km): accurate to about 0.5 %, ample
/// for "photos near here".
enum GeoDistance {
    /// Mean Earth radius in kilometres.
    static let earthRadius = 6371.0088

    /// The SQL function name: `pinhole_distance_km(lat1, lon1, lat2, lon2)`.
    static let sqlFunction = "pinhole_distance_km"

    /// Haversine distance in kilometres.
    static func kilometres(_ lat1: Double, _ lon1: Double, _ lat2: Double, _ lon2: Double) -> Double {
        let radians = Double.pi / 180
        let dLat = (lat2 - lat1) * radians
        let dLon = (lon2 - lon1) * radians
        let a =
            sin(dLat / 2) * sin(dLat / 2) + cos(lat1 * radians) * cos(lat2 * radians) * sin(dLon / 2)
            * sin(dLon / 2)
        return 2 * earthRadius * asin(min(1, a.squareRoot()))
    }

    /// The registered SQL function (NULL for NULL arguments).
    static let databaseFunction = DatabaseFunction(sqlFunction, argumentCount: 4, pure: true) { values in
        let numbers = values.compactMap { Double.fromDatabaseValue($0) }
        guard numbers.count == 4 else { return nil }
        return kilometres(numbers[0], numbers[1], numbers[2], numbers[3])
    }

    /// A latitude/longitude box containing every point within `kilometres` of the centre.
    /// `west`/`east` are nil when the box spans every longitude (near a pole, or a radius
    /// beyond a quarter of the Earth); `west > east` when it crosses the antimeridian.
    static func boundingBox(latitude: Double, longitude: Double, kilometres: Double)
        -> (south: Double, north: Double, west: Double?, east: Double?)
    {
        let angular = kilometres / earthRadius * 180 / .pi
        let south = max(-90, latitude - angular)
        let north = min(90, latitude + angular)
        guard north < 90, south > -90, angular < 90 else { return (south, north, nil, nil) }
        let spread = asin(min(1, sin(angular * .pi / 180) / cos(latitude * .pi / 180))) * 180 / .pi
        var west = longitude - spread
        var east = longitude + spread
        if west < -180 { west += 360 }
        if east > 180 { east -= 360 }
        return (south, north, west, east)
    }
}
