// The camera backend contract: one suite that the simulated cameras and libcamera on vimc must both pass.

import PinholeCore

/// What the behaviour relies on from a `CameraProvider` and its `CameraDevice`, checked
/// through a harness: discovery, configuration (what the camera lists is accepted as asked,
/// the rest is adjusted with a note or refused), controls checked against what the camera
/// lists, frame metadata (sequence, timestamps on the loop's clock, exposure and gain), and
/// stop and restart without leaked buffers. Every step reports one `ok …` or `FAIL …` line.
public final class CameraContract {
    let harness: any CameraContractHarness
    private let cameraID: String?
    var device: (any CameraDevice)?
    var info: CameraInfo?
    /// Frames delivered and not yet taken by a step, with the loop time of their delivery.
    var received: [(frame: any CameraFrame, delivered: Instant)] = []
    /// Frames a step keeps (released when the suite ends, whatever happens).
    var held: [any CameraFrame] = []
    /// The stream configured for the streaming steps.
    var stream: StreamRequest?
    /// Controls the camera echoes in frame metadata (seen by the metadata step).
    var echoed: Set<String> = []
    /// The last frame interval seen per frame (for waits in real time).
    var frameInterval: Duration = .milliseconds(100)
    /// Buffers the camera lends at once (measured by the buffer step).
    var bufferCount = 0
    /// The longest gap between two deliveries while the camera had buffers (no gap that
    /// spans running out of them): real cameras under load are uneven.
    var longestGap: Duration = .zero
    /// The last delivery counted for `longestGap` (nil after a start or running out).
    var lastDelivery: Instant?

    /// Creates the suite for the camera called `cameraID` (default: the first listed).
    public init(harness: any CameraContractHarness, cameraID: String? = nil) {
        self.harness = harness
        self.cameraID = cameraID
    }

    var loop: EventLoop { harness.loop }

    /// Runs every step (the later ones only if a camera could be opened); returns whether all
    /// passed. The camera is stopped and closed, and every frame released, at the end.
    public func run(report: (String) -> Void) -> Bool {
        var passed = true
        func step(_ name: String, _ body: () throws -> String) {
            do {
                report("ok camera \(name): \(try body())")
            } catch {
                passed = false
                report("FAIL camera \(name): \(error)")
            }
        }
        step("discovery", checkDiscovery)
        guard device != nil else { return false }
        step("configuration", checkConfiguration)
        if stream != nil {
            step("frame metadata", checkMetadata)
            step("controls", checkControls)
            step("buffers", checkBuffers)
            step("restart", checkRestart)
        }
        finish()
        return passed
    }

    // MARK: Discovery and configuration

    private func checkDiscovery() throws -> String {
        let cameras = try harness.provider.cameras()
        guard !cameras.isEmpty else { throw ContractFailure("the provider lists no camera") }
        for camera in cameras where camera.stillSizes.isEmpty || camera.stillFormats.isEmpty {
            throw ContractFailure("camera \(camera.id) lists no still size or no still format")
        }
        do {
            _ = try harness.provider.open(id: "pinhole-no-such-camera")
            throw ContractFailure("opening an unknown camera id succeeded")
        } catch let error as CameraError {
            guard case .unknownCamera("pinhole-no-such-camera", _) = error else {
                throw ContractFailure("an unknown camera id gave \(error), expected unknownCamera")
            }
        }
        guard let chosen = cameras.first(where: { cameraID == nil || $0.id == cameraID }) else {
            throw ContractFailure("no camera \(cameraID ?? "")")
        }
        device = try harness.provider.open(id: chosen.id)
        info = chosen
        return "\(cameras.count) listed, opened \(chosen.model) (\(chosen.id)):"
            + " \(chosen.stillSizes.count) still sizes, formats"
            + " \(chosen.stillFormats.map(\.rawValue).joined(separator: ",")),"
            + " controls \(chosen.controls.keys.sorted().joined(separator: ","))"
    }

    private func checkConfiguration() throws -> String {
        guard let device, let info else { throw ContractFailure("no camera open") }
        let viewfinder = info.viewfinderSizes.first ?? PixelSize(width: 640, height: 480)
        let byArea: (PixelSize, PixelSize) -> Bool = { $0.width * $0.height < $1.width * $1.height }
        let sorted = info.stillSizes.sorted(by: byArea)
        // Small enough to stream quickly under emulation, large enough to be a picture.
        let streamSize = sorted.first { $0.width >= 320 } ?? sorted.last!
        var sizes = [info.stillSizes[0], sorted.first!, sorted.last!, streamSize]
        sizes = sizes.enumerated().filter { !sizes[..<$0.offset].contains($0.element) }.map(\.element)
        var checked = 0
        func accepted(_ size: PixelSize, _ format: PixelFormat) throws {
            let asked = StreamRequest(stillSize: size, stillFormat: format, viewfinderSize: viewfinder)
            let used = try device.configure(asked).request
            guard used.stillSize == size, used.stillFormat == format else {
                throw ContractFailure(
                    "listed still \(size) \(format.rawValue) was changed to \(used.stillSize)"
                        + " \(used.stillFormat.rawValue)")
            }
            checked += 1
        }
        for size in sizes { try accepted(size, info.stillFormats[0]) }
        for format in info.stillFormats.dropFirst() { try accepted(streamSize, format) }
        var refusals: [String] = []
        let largest = sorted.last!
        let unlisted = [
            PixelSize(width: largest.width * 2, height: largest.height * 2), PixelSize(width: 2, height: 2),
        ].filter { !info.stillSizes.contains($0) }
        for size in unlisted {
            refusals.append(
                try refused(StreamRequest(stillSize: size, viewfinderSize: viewfinder), field: "still size"))
        }
        if let format = PixelFormat.allCases.first(where: { !info.stillFormats.contains($0) }) {
            let asked = StreamRequest(stillSize: streamSize, stillFormat: format, viewfinderSize: viewfinder)
            refusals.append(try refused(asked, field: "still format"))
        }
        do {
            _ = try device.configure(StreamRequest(stillSize: PixelSize(width: 0, height: 0)))
            throw ContractFailure("an empty still size 0x0 was accepted")
        } catch let error as CameraError {
            guard case .invalidConfiguration = error else {
                throw ContractFailure("an empty still size gave \(error), expected invalidConfiguration")
            }
            refusals.append("0x0: \(error)")
        }
        let used = try device.configure(
            StreamRequest(
                stillSize: streamSize, stillFormat: info.stillFormats[0], viewfinderSize: viewfinder))
        stream = used.request
        return
            "\(checked) listed size/format pairs used as asked; unlisted ones adjusted"
            + " with a note or refused (\(refusals.joined(separator: "; "))); streaming \(used.request.stillSize)"
            + " \(used.request.stillFormat.rawValue)"
    }

    /// Configures `asked` (which the camera does not list) and requires a refusal, or an
    /// adjustment that changes `field` and says so.
    private func refused(_ asked: StreamRequest, field: String) throws -> String {
        let outcome: ConfigurationOutcome
        do {
            outcome = try device!.configure(asked)
        } catch let error as CameraError {
            guard case .invalidConfiguration = error else {
                throw ContractFailure("unlisted \(field) gave \(error), expected invalidConfiguration")
            }
            return "\(field) refused: \(error)"
        }
        guard case .adjusted(let used, let notes) = outcome,
            let note = notes.first(where: { $0.contains(field) })
        else {
            throw ContractFailure("unlisted \(field) in \(asked) was accepted as valid")
        }
        let changed =
            field == "still size" ? used.stillSize != asked.stillSize : used.stillFormat != asked.stillFormat
        guard changed else { throw ContractFailure("a note says \(note) but the \(field) was used as asked") }
        return note
    }

    // MARK: Frames

    /// Starts streaming into `received`.
    func startStreaming() throws {
        received.removeAll()
        lastDelivery = nil
        try device!.start { [unowned self] frame in
            let now = loop.now
            if let lastDelivery { longestGap = max(longestGap, now - lastDelivery) }
            lastDelivery = now
            received.append((frame, now))
        }
    }

    /// Waits for `count` more frames and takes them off the queue (the caller releases them).
    func take(_ count: Int, _ what: String) throws -> [(frame: any CameraFrame, delivered: Instant)] {
        harness.pass(harness.frameTimeout * count) { received.count >= count }
        guard received.count >= count else {
            throw ContractFailure(
                "\(what): \(received.count) of \(count) frames within \(harness.frameTimeout * count)")
        }
        let taken = Array(received.prefix(count))
        received.removeFirst(count)
        return taken
    }

    /// Releases every queued frame.
    func releaseReceived() {
        for entry in received { entry.frame.release() }
        received.removeAll()
    }

    private func finish() {
        device?.stop()
        releaseReceived()
        for frame in held { frame.release() }
        held.removeAll()
        device?.close()
        device = nil
    }
}

extension ConfigurationOutcome {
    /// The request as the camera will use it.
    var request: StreamRequest {
        switch self {
        case .valid(let request), .adjusted(let request, _): return request
        }
    }
}
