// Cameras through libcamera: discovery with the process's one CameraManager, and opening.

import CameraShim
import PinholeCore

/// The libcamera backend of `CameraProvider`.
///
/// All providers share the shim's single CameraManager (libcamera allows one per process).
/// Where there is no camera, `cameras()` returns an empty list and `open` fails with
/// `CameraError.noCamera`, so the appliance reports "no camera" and keeps running.
public final class LibcameraProvider: CameraProvider {
    private let loop: EventLoop
    private var descriptions: [String: LibcameraDescription] = [:]
    private var devices: [String: LibcameraDevice] = [:]

    /// Creates a provider delivering frames on `loop`.
    public init(loop: EventLoop) { self.loop = loop }

    /// The libcamera version in use.
    public static var version: String { String(cString: pinhole_libcamera_version()) }

    /// The cameras present now, as they describe themselves.
    public func cameras() throws -> [CameraInfo] {
        var error = [CChar](repeating: 0, count: 512)
        let count = pinhole_lc_start(&error, error.count)
        guard count >= 0 else {
            throw CameraError.noCamera(detail: shimText(error))
        }
        var found: [LibcameraDescription] = []
        for index in 0..<Int(count) {
            let needed = pinhole_lc_describe(Int32(index), nil, 0)
            guard needed >= 0 else { continue }
            var text = [CChar](repeating: 0, count: Int(needed) + 1)
            _ = pinhole_lc_describe(Int32(index), &text, text.count)
            found.append(LibcameraDescription(text: shimText(text)))
        }
        descriptions = Dictionary(found.map { ($0.info.id, $0) }, uniquingKeysWith: { first, _ in first })
        return found.map(\.info)
    }

    /// Opens the camera called `id` for exclusive use.
    public func open(id: String) throws -> any CameraDevice {
        if let device = devices[id] {
            device.reopen()
            return device
        }
        if descriptions.isEmpty { _ = try cameras() }
        guard let description = descriptions[id] else {
            if descriptions.isEmpty {
                throw CameraError.noCamera(detail: "libcamera \(Self.version) found no camera")
            }
            throw CameraError.unknownCamera(id, available: descriptions.keys.sorted())
        }
        let device = try LibcameraDevice(description: description, loop: loop)
        device.onClosed = { [weak self] in self?.devices[id] = nil }
        devices[id] = device
        return device
    }
}

/// The text of a NUL-terminated buffer the shim filled in.
func shimText(_ buffer: [CChar]) -> String {
    String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
}
