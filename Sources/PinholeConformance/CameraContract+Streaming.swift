// The camera contract's streaming steps: frame metadata, buffers, and stop and restart.

import PinholeCore

extension CameraContract {
    /// Sequence numbers increase; sensor timestamps increase, lie on the loop's clock between
    /// the start and each frame's delivery, and are at least an exposure apart; exposure and
    /// gain are reported where the camera lists them as controls.
    func checkMetadata() throws -> String {
        guard let info else { throw ContractFailure("no camera open") }
        let started = loop.now
        try startStreaming()
        // One at a time, released at once: the camera lends only a few buffers.
        var frames: [(metadata: FrameMetadata, delivered: Instant)] = []
        for _ in 0..<6 {
            let entry = try take(1, "after start (\(frames.count) frames so far)")[0]
            frames.append((entry.frame.metadata, entry.delivered))
            entry.frame.release()
        }
        let metadata = frames.map(\.metadata)
        for (entry, data) in zip(frames, metadata)
        where data.sensorTimestamp < started || data.sensorTimestamp > entry.delivered {
            throw ContractFailure(
                "frame #\(data.sequence) has sensor timestamp \(data.sensorTimestamp), outside \(started) (start)"
                    + " … \(entry.delivered) (its delivery) on the loop's monotonic clock")
        }
        var intervals: [Duration] = []
        for (previous, next) in zip(metadata, metadata.dropFirst()) {
            guard next.sequence > previous.sequence else {
                throw ContractFailure("sequence \(previous.sequence) then \(next.sequence): not increasing")
            }
            let interval = next.sensorTimestamp - previous.sensorTimestamp
            guard interval >= previous.exposureTime, interval > .zero else {
                throw ContractFailure(
                    "frames #\(previous.sequence) and #\(next.sequence) start \(interval) apart, less than the"
                        + " first one's exposure \(previous.exposureTime)")
            }
            intervals.append(interval / Int(next.sequence - previous.sequence))
        }
        frameInterval = intervals.sorted()[intervals.count / 2]
        var reported: [String] = []
        if info.controls["ExposureTime"] != nil {
            guard let bad = metadata.first(where: { $0.exposureTime <= .zero }) else {
                reported.append("exposure \(Int(metadata.last!.exposureTime.milliseconds * 1000)) µs")
                return try describe(metadata, reported)
            }
            throw ContractFailure(
                "frame #\(bad.sequence) reports no exposure time though ExposureTime is listed")
        }
        reported.append("no exposure time (ExposureTime not listed)")
        return try describe(metadata, reported)
    }

    private func describe(_ metadata: [FrameMetadata], _ reported: [String]) throws -> String {
        guard let info else { throw ContractFailure("no camera open") }
        var reported = reported
        if info.controls["AnalogueGain"] != nil {
            if let bad = metadata.first(where: { !($0.analogueGain >= 1) || !$0.analogueGain.isFinite }) {
                throw ContractFailure("frame #\(bad.sequence) reports analogue gain \(bad.analogueGain)")
            }
            reported.append("gain \(metadata.last!.analogueGain)")
        } else {
            reported.append("no gain (AnalogueGain not listed)")
        }
        echoed = Set(metadata.flatMap(\.controls.keys)).filter {
            info.controls[$0] != nil && !Self.rectangleControls.contains($0)
        }
        let sequences = metadata.map { String($0.sequence) }.joined(separator: ",")
        return "sequences \(sequences) increasing, sensor timestamps on the loop's"
            + " monotonic clock between start and delivery, \(oneDecimal(frameInterval.milliseconds)) ms"
            + " apart (each ≥ its exposure); \(reported.joined(separator: ", ")); echoes"
            + " \(echoed.isEmpty ? "no control" : echoed.sorted().joined(separator: ","))"
    }

    /// Holding every frame, the camera runs out of buffers and stops delivering; releasing one
    /// lets frames flow again. Measures how many buffers it lends (the restart step compares).
    func checkBuffers() throws -> String {
        releaseReceived()
        bufferCount = try holdUntilStarved()
        guard bufferCount >= 2 else {
            throw ContractFailure("the camera lent only \(bufferCount) buffer(s) at once")
        }
        // Keep the newest for the restart step; give the others back.
        held.append(received.removeLast().frame)
        releaseReceived()
        _ = try take(1, "after releasing held frames").map { $0.frame.release() }
        return "holding every frame, delivery stops after \(bufferCount) frames;"
            + " releasing them lets frames flow again"
    }

    /// Stop delivers nothing more; a frame held across the stop stays readable; a restart
    /// makes frames flow again with later timestamps, lending as many buffers as before (none
    /// leaked), twice: the second time configured again first, as the watchdog restarts.
    func checkRestart() throws -> String {
        guard let device else { throw ContractFailure("no camera open") }
        device.stop()
        let stopped = loop.now
        releaseReceived()
        harness.pass(quiet) { !received.isEmpty }
        guard received.isEmpty else {
            throw ContractFailure("\(received.count) frame(s) arrived after stop()")
        }
        var notes: [String] = []
        if let kept = held.popLast() {
            let image = try kept.stillImage()
            kept.release()
            guard image.width > 0, image.planes.first.map({ !$0.bytes.isEmpty }) == true else {
                throw ContractFailure("a frame held across stop() has an empty image")
            }
            notes.append("a frame held across stop still reads \(image.width)x\(image.height)")
        }
        for round in 1...2 {
            if round == 2, let stream {
                // The engine's watchdog restarts a stalled camera this way: configure, then start.
                _ = try device.configure(stream)
            }
            let restarted = loop.now
            try startStreaming()
            let frames = try take(2, "restart \(round)")
            frames.forEach { $0.frame.release() }
            let metadata = frames.map(\.frame.metadata)
            guard metadata[1].sequence > metadata[0].sequence,
                metadata.allSatisfy({ $0.sensorTimestamp >= restarted })
            else {
                throw ContractFailure(
                    "restart \(round): sequences \(metadata.map(\.sequence)), timestamps"
                        + " \(metadata.map(\.sensorTimestamp)) (restarted at \(restarted), stopped at \(stopped))"
                )
            }
            let lent = try holdUntilStarved()
            releaseReceived()
            guard lent == bufferCount else {
                throw ContractFailure(
                    "after restart \(round)\(round == 2 ? " (configured again)" : "") the camera lends \(lent)"
                        + " buffers at once, before it lent \(bufferCount) (buffers leaked or lost; no frame for"
                        + " \(quiet) counted as out of buffers)")
            }
            notes.append(
                "after restart \(round)\(round == 2 ? " (configured again)" : "") it lends \(lent) buffers")
            device.stop()
            releaseReceived()
        }
        return
            "nothing after stop; \(notes.joined(separator: "; ")); frames flow after each of"
            + " two restarts with fresh timestamps"
    }

    /// How long without a frame counts as "no more frames": four (median) frame intervals,
    /// three times the longest gap seen while the camera had buffers, at least 50 ms. vimc
    /// under emulation makes frames 0.7–5 s apart, slower for a while after a restart: four
    /// median intervals alone took a slow frame for running out of buffers.
    var quiet: Duration { max(frameInterval * 4, longestGap * 3, .milliseconds(50)) }

    /// Holds every delivered frame until none arrives for `quiet`; returns how many arrived.
    private func holdUntilStarved() throws -> Int {
        harness.pass(harness.frameTimeout) { !received.isEmpty }
        while received.count < 64 {
            let count = received.count
            harness.pass(quiet) { received.count > count }
            if received.count == count {
                lastDelivery = nil  // the next gap spans running out of buffers
                return count
            }
        }
        throw ContractFailure(
            "holding every frame, the camera still delivered 64: it lends no bounded buffer set")
    }
}

/// `value` with one decimal.
func oneDecimal(_ value: Double) -> String {
    let tenths = (value * 10).rounded() / 10
    return String(tenths)
}
