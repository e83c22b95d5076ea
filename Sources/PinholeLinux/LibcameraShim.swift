// The camera shim (libPinholeCamera.so, which links libcamera), loaded with dlopen on first use.

import CameraShimInterface
import PinholeCore
import PinholeSystem
import SystemPackage

/// The C++ shim's functions, from a shared object of its own that `pinhole` loads only when a
/// libcamera board first asks for a camera, so that the simulated board maps none of libcamera
/// (nor its lttng, gnutls, udev and libstdc++ dependencies, nor starts their threads).
///
/// The shim is looked for beside the executable (a SwiftPM build directory, where
/// `swift build` puts it next to `pinhole` and the test bundle), then in `../lib/pinhole`
/// (the .deb: /usr/bin/pinhole and /usr/lib/pinhole/libPinholeCamera.so).
struct LibcameraShim: @unchecked Sendable {
    /// The shared object's file name (the `PinholeCamera` dynamic library product).
    static let fileName = "libPinholeCamera.so"

    private let api: pinhole_lc_api

    /// The process's shim, loaded on the first call (any thread; later calls reuse it).
    static func shared() throws(CameraError) -> LibcameraShim {
        switch loaded {
        case .success(let shim): return shim
        case .failure(let error): throw error
        }
    }

    private static let loaded: Result<LibcameraShim, CameraError> = Result {
        () throws(CameraError) -> LibcameraShim in
        try load(from: candidates(beside: SharedObject.executable()))
    }

    /// Where the shim may be, in the order tried.
    static func candidates(beside executable: FilePath?) -> [FilePath] {
        SharedObject.candidates(fileName, beside: executable)
    }

    /// Opens the first candidate that loads and takes its function table.
    static func load(from candidates: [FilePath]) throws(CameraError) -> LibcameraShim {
        do {
            return LibcameraShim(
                api: try SharedObject.functionTable(PINHOLE_LC_API_SYMBOL, from: candidates) {
                    (api: pinhole_lc_api) in api.isComplete
                })
        } catch {
            switch error {
            case .notLoaded(let failure):
                throw .noCamera(
                    detail:
                        "the libcamera backend \(fileName) could not be loaded (\(failure)); reinstall the pinhole package"
                )
            case .noTable(let path, let failure):
                throw .noCamera(detail: "\(path) is not Pinhole's camera shim: \(failure)")
            case .incomplete(let path):
                throw .noCamera(detail: "\(path) is an incomplete camera shim (another Pinhole version?)")
            }
        }
    }

    // MARK: The shim's functions (camera_shim.h says what each does)

    var version: String { api.version!().map { String(cString: $0) } ?? "unknown" }

    func start(_ error: inout [CChar]) -> Int32 { api.start!(&error, error.count) }

    func describe(_ index: Int32, _ out: UnsafeMutablePointer<CChar>?, _ size: Int) -> Int32 {
        api.describe!(index, out, size)
    }

    func open(_ id: String, _ error: inout [CChar]) -> OpaquePointer? { api.open!(id, &error, error.count) }

    func configure(_ camera: OpaquePointer, _ config: inout pinhole_lc_config, _ error: inout [CChar])
        -> Int32
    {
        api.configure!(camera, &config, &error, error.count)
    }

    func startCamera(
        _ camera: OpaquePointer, _ callback: pinhole_lc_frame_callback, _ context: UnsafeMutableRawPointer,
        _ error: inout [CChar]
    ) -> Int32 {
        api.start_camera!(camera, callback, context, &error, error.count)
    }

    func requeue(_ camera: OpaquePointer, _ request: Int32) { api.requeue!(camera, request) }

    func stopCamera(_ camera: OpaquePointer) { api.stop_camera!(camera) }

    func releaseGeneration(_ camera: OpaquePointer, _ generation: Int32) {
        api.release_generation!(camera, generation)
    }

    func setControl(
        _ camera: OpaquePointer, _ name: String, _ kind: Int32, _ values: [Double], _ error: inout [CChar]
    ) -> Int32 {
        api.set_control!(camera, name, kind, values, Int32(values.count), &error, error.count)
    }

    func close(_ camera: OpaquePointer) { api.close!(camera) }
}

extension pinhole_lc_api {
    /// Every entry is set (the C type allows null ones).
    fileprivate var isComplete: Bool {
        version != nil && start != nil && describe != nil && open != nil && configure != nil
            && start_camera != nil && requeue != nil && stop_camera != nil && release_generation != nil
            && set_control != nil && close != nil
    }
}
