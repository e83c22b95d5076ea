// The appliance as the timelapse's and the trigger inputs' narrow seam (UnattendedShooting).

import PinholeField

extension Appliance: UnattendedShooting {
    /// The store's album filing, when it has one.
    public var albumFiling: (any AlbumFiling)? { store as? any AlbumFiling }

    /// Reports `message` to observers as a notice.
    public func notice(_ message: String) { emit(.notice(message)) }
}
