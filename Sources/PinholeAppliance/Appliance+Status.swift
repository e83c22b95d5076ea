// Snapshots of the appliance for `status` and `gpio status`.

import PinholeBoard
import PinholeCore

extension Appliance {
    /// A snapshot for `status`.
    public func status() -> ApplianceStatus {
        // A camera that does not answer its session is reported missing, not as running.
        let running = engine.unansweredCommand == nil ? engine.current : nil
        let camera = running.map { info -> ApplianceStatus.Camera in
            let size: PixelSize
            switch engine.configuration {
            case .valid(let request)?, .adjusted(let request, _)?: size = request.stillSize
            case nil: size = info.pixelArraySize
            }
            return ApplianceStatus.Camera(
                id: info.id, model: info.model,
                position: engine.position(of: info).rawValue,
                torch: engine.currentFitting?.torch ?? false, stillSize: size.description)
        }
        let frame = engine.lastFrame
        let last = lastCapture.map {
            ApplianceStatus.LastCapture(
                id: $0.photo.id, file: $0.photo.file.string, selection: $0.selection.rawValue,
                pressToSelectedMs: ($0.selectedAt - $0.pressedAt).milliseconds,
                pressToSavedMs: ($0.savedAt - $0.pressedAt).milliseconds)
        }
        var status = ApplianceStatus(
            board: board.name, camera: camera, cameras: engine.cameras.count, torch: torchOn,
            flash: engine.flash.mode.rawValue,
            exposureTimeUs: frame.map { Int($0.exposureTime.nanoseconds / 1000) }, gain: frame?.totalGain,
            lensPosition: frame?.lensPosition, afMode: engine.focus.status.mode,
            afState: engine.focus.status.state.rawValue, lux: frame?.lux, photos: try? store.photoCount(),
            storageFreeBytes: store.freeBytes(), lastCapture: last, busy: isBusy,
            frames: engine.framesReceived,
            problems: problems)
        status.cameraMissing = cameraMissing
        status.recording = recorder?.status.map { RecordingSummary($0, now: loop.now) }
        if board.buttons[.mode] != nil { status.mode = captureMode.rawValue }
        engine.fillStatus(&status)
        fillFieldStatus(&status)
        fillGPSStatus(&status)
        return status
    }

    /// Every input and output with its current state, for `gpio status`.
    public func gpioStatus() -> GPIOStatus {
        let inputs = board.buttons.sorted { $0.key.rawValue < $1.key.rawValue }.map { function, wiring in
            GPIOStatus.Input(
                function: function.rawValue, line: wiring.line, activeLow: wiring.activeLow,
                bias: wiring.bias.rawValue,
                debounceMs: Int(wiring.debounce.milliseconds),
                kernelDebounceMs: Int(wiring.inputConfig.debounce.milliseconds),
                active: buttons.level(function), pressed: isPressed(function))
        }
        let outputs = board.outputs.sorted { $0.key.rawValue < $1.key.rawValue }.map { function, wiring in
            let controller = self.outputs[function]
            return GPIOStatus.Output(
                function: function.rawValue, line: wiring.line, activeLow: wiring.activeLow,
                on: controller?.isOn ?? false, showing: controller?.showing ?? "released")
        }
        let chords = board.chords.map {
            GPIOStatus.ChordState(
                action: $0.action.rawValue, buttons: $0.buttons.map(\.rawValue).sorted(),
                holdMs: Int($0.hold.milliseconds), powerOff: $0.powerOff)
        }
        let shutterState = GPIOStatus.Shutter(
            halfPressed: shutter.halfPressed, fullPressed: shutter.fullPressed, locked: shutter.locked,
            burstShots: engine.currentBurstShots, burstShotsTaken: burstShotsTaken, burstSkipped: burstSkipped
        )
        return GPIOStatus(
            board: board.name, chip: board.gpioChip, inputs: inputs, outputs: outputs, chords: chords,
            shutter: shutterState,
            tilt: tilt.map { GPIOStatus.Tilt(a: $0.a, b: $0.b, rotation: $0.rotation) },
            orientation: currentOrientation.rawValue)
    }
}
