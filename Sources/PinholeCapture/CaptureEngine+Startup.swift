// Discovering and opening the first camera without blocking the loop (a camera may hang at open).

import PinholeCore

extension CaptureEngine {
    /// Discovers the cameras and starts the preferred one (the first back camera) through the
    /// provider's non-blocking calls: the loop keeps running while the camera system or the
    /// sensor is slow, and `completion` gets nil once the camera streams, or the error. It
    /// may never be called while the backend hangs; `stop()` makes a later completion stale
    /// (a camera it opened is closed again).
    public func beginStart(_ completion: @escaping ((any Error)?) -> Void) {
        startAttempt += 1
        let attempt = startAttempt
        isOpening = true
        provider.cameras { [weak self] result in
            guard let self, attempt == self.startAttempt else { return }
            switch result {
            case .failure(let error):
                self.isOpening = false
                completion(error)
            case .success(let found):
                self.cameras = found
                guard !found.isEmpty else {
                    self.isOpening = false
                    return completion(CameraError.noCamera(detail: "the camera system reports none"))
                }
                let preferred = found.first { self.position(of: $0) == .back } ?? found[0]
                self.provider.open(id: preferred.id) { [weak self] result in
                    self?.opened(result, camera: preferred, attempt: attempt, completion: completion)
                }
            }
        }
    }

    private func opened(
        _ result: Result<any CameraDevice, any Error>, camera: CameraInfo, attempt: Int,
        completion: @escaping ((any Error)?) -> Void
    ) {
        guard attempt == startAttempt else {
            // Stopped (or started again) meanwhile: nobody wants this camera now.
            if case .success(let device) = result { retire(device, camera: camera) }
            return
        }
        isOpening = false
        switch result {
        case .failure(let error): completion(error)
        case .success(let opened):
            startDevice(opened, camera: camera) { [weak self] error in
                if error != nil, let self, self.device === opened {
                    self.retire(opened, camera: camera)
                    self.device = nil
                    self.current = nil
                }
                completion(error)
            }
        }
    }
}
