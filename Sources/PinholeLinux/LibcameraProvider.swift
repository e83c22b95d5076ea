// Cameras through libcamera: discovery with the process's one CameraManager, and opening.

import PinholeCore
import PinholeSystem

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

    /// The libcamera version in use (loads the camera shim), or why it cannot be loaded.
    public static var version: String {
        do { return try LibcameraShim.shared().version } catch { return "unavailable: \(error)" }
    }

    /// The cameras present now, as they describe themselves.
    public func cameras() throws -> [CameraInfo] {
        let found = try Self.discover()
        remember(found)
        return found.map(\.info)
    }

    private func remember(_ found: [LibcameraDescription]) {
        descriptions = Dictionary(found.map { ($0.info.id, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// Starts the shared camera manager (once) and describes every camera (any thread).
    private static func discover() throws -> [LibcameraDescription] {
        let shim = try LibcameraShim.shared()
        var error = [CChar](repeating: 0, count: 512)
        let count = shim.start(&error)
        guard count >= 0 else {
            throw CameraError.noCamera(detail: shimText(error))
        }
        var found: [LibcameraDescription] = []
        for index in 0..<Int(count) {
            let needed = shim.describe(Int32(index), nil, 0)
            guard needed >= 0 else { continue }
            var text = [CChar](repeating: 0, count: Int(needed) + 1)
            _ = shim.describe(Int32(index), &text, text.count)
            found.append(LibcameraDescription(text: shimText(text)))
        }
        return found
    }

    /// `cameras()` on a thread of its own (starting libcamera's camera manager can hang on a
    /// driver that does not answer); `completion` runs on the loop.
    public func cameras(then completion: @escaping (Result<[CameraInfo], any Error>) -> Void) {
        let loop = self.loop
        let done = LoopBound(completion, loop: loop)
        let provider = LoopBound(self, loop: loop)
        SystemThread.detach {
            let found = Result { try Self.discover() }
            loop.post {
                if case .success(let descriptions) = found { provider.value.remember(descriptions) }
                done.value(found.map { $0.map(\.info) })
            }
        }
    }

    /// Opens `id` with the blocking part (acquiring the camera) on a thread of its own, so that
    /// a camera that hangs at open leaves the loop running; `completion` runs on the loop.
    public func open(id: String, then completion: @escaping (Result<any CameraDevice, any Error>) -> Void) {
        if devices[id] != nil || descriptions[id] == nil {
            // Reopening needs no new acquire; an unknown id fails at once.
            return completion(Result { try open(id: id) })
        }
        let description = descriptions[id]!
        let loop = self.loop
        let done = LoopBound(completion, loop: loop)
        let provider = LoopBound(self, loop: loop)
        SystemThread.detach {
            let camera = Result { try LibcameraDevice.acquire(description.info.id) }
            loop.post {
                done.value(camera.map { provider.value.adopt($0, description: description) })
            }
        }
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
        return adopt(try LibcameraDevice.acquire(id), description: description)
    }

    /// Wraps an acquired camera in its device and keeps it until it is closed.
    private func adopt(_ camera: AcquiredCamera, description: LibcameraDescription) -> LibcameraDevice {
        let id = description.info.id
        let device = LibcameraDevice(description: description, loop: loop, camera: camera)
        device.onClosed = { [weak self] in self?.devices[id] = nil }
        devices[id] = device
        return device
    }
}

/// A camera the shim acquired, carried from the opening thread to the loop.
struct AcquiredCamera: @unchecked Sendable {
    let handle: OpaquePointer
    let shim: LibcameraShim
}

/// The text of a NUL-terminated buffer the shim filled in.
func shimText(_ buffer: [CChar]) -> String {
    String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
}
