// Captures with the torch LED as flash: lit before the frame's exposure starts, dark after it ends.

import PinholeCore

extension CaptureEngine {
    /// A capture waiting for a frame lit by the flash.
    struct FlashCapture {
        var pressedAt: Instant
        var firedAt: Instant
        var litFrames = 0
        var lastProduct: Double?
        var timeout: TimerID
        var completion: (Result<CaptureResult, Error>) -> Void
    }

    /// Fires the flash for a capture pressed at `pressedAt`.
    func fireFlash(pressedAt: Instant, completion: @escaping (Result<CaptureResult, Error>) -> Void) {
        guard flashCapture == nil else {
            completion(
                .failure(
                    CaptureError.failed("a flash capture is already under way: press again once it is saved"))
            )
            return
        }
        flashDriver?(true)
        let waited = frameTimeout
        let model = current?.model ?? "?"
        let timeout = loop.schedule(after: waited) { [weak self] in
            guard let self, let capture = self.flashCapture else { return }
            self.finishFlash(capture, frame: nil)
            capture.completion(.failure(CaptureError.noFrame(camera: model, waited: waited)))
        }
        flashCapture = FlashCapture(
            pressedAt: pressedAt, firedAt: loop.now, timeout: timeout, completion: completion)
    }

    /// Offers a frame to the flash capture; returns true when it was taken.
    func flashFrameArrived(_ frame: any CameraFrame) -> Bool {
        guard var capture = flashCapture else { return false }
        let metadata = frame.metadata
        // Only frames whose whole exposure came after the torch lit up.
        guard metadata.sensorTimestamp >= capture.firedAt else { return false }
        capture.litFrames += 1
        let product = metadata.exposureTime.seconds * metadata.totalGain
        let settled =
            exposure.isManual || exposureLocked
            || capture.lastProduct.map { abs(product / $0 - 1) < 0.08 } ?? false
        capture.lastProduct = product
        guard settled || capture.litFrames >= flash.maxSettleFrames else {
            flashCapture = capture
            return false
        }
        finishFlash(capture, frame: frame)
        process(
            frame, pressedAt: capture.pressedAt, selection: .flashLit, flashFired: true,
            completion: capture.completion)
        return true
    }

    /// The flash capture is over: the torch returns to what the user set.
    func finishFlash(_ capture: FlashCapture, frame: (any CameraFrame)?) {
        loop.cancel(capture.timeout)
        flashCapture = nil
        flashDriver?(false)
    }
}
