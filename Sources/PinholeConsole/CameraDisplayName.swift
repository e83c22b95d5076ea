// How the console names a camera to a person: "back (imx477)", not its libcamera id.

/// Display names of cameras in photo lists and details.
enum CameraDisplayName {
    /// "position (model)" of the camera `id` when this appliance has it ("back (imx477)");
    /// for one it does not have (a photo from another board), `model` taken from the photo,
    /// else the id's last path component without its bus address
    /// (`/base/soc/i2c0mux/i2c@1/imx477@1a` → "imx477"); "" without an id.
    static func of(id: String?, model: String?, among cameras: [MenuSnapshot.Camera]) -> String {
        guard let id, !id.isEmpty else { return model ?? "" }
        if let camera = cameras.first(where: { $0.id == id }) {
            return "\(camera.position) (\(camera.model))"
        }
        if let model, !model.isEmpty { return model }
        let last = id.split(separator: "/").last.map(String.init) ?? id
        return String(last.prefix { $0 != "@" })
    }
}
