// A rig whose appliance records: a 320x240 simulated camera, the fake video backend, a clip store in memory.

import PinholeAppliance
import PinholeBoard
import PinholeCapture
import PinholeField
import PinholeCore
import PinholeSim

extension ApplianceRig {
    /// The simulated board (with `board`'s changes) and a recorder attached: 160x96 (or
    /// `size`) at 10 fps (or `fps`), a keyframe a second, `ringSeconds` of pre-roll, clips into
    /// `clips` (photos into `photoStore` when given); the ring has had 4 s to fill. The buttons in `closed` are already down when
    /// the appliance starts (a latching switch left on).
    static func recording(
        into clips: MemoryClipStore, size: PixelSize = PixelSize(width: 160, height: 96), fps: Int = 10,
        maxSeconds: Double = 60, ringSeconds: Double = 2,
        closed: [ButtonFunction] = [], photoStore: (any PhotoStore)? = nil,
        board change: (inout BoardProfile) -> Void = { _ in }
    ) throws -> ApplianceRig {
        var board = try BuiltInBoards.simulated()
        change(&board)
        let loop = EventLoop.virtual()
        let gpio = SimulatedGPIO(loop: loop, lineNames: board.lineNames)
        for function in closed { gpio.drive(board.buttons[function]!.line, active: true) }
        let spec = SimCameraSpec(
            id: "test/imx477@1a", model: "imx477", position: .back,
            pixelArraySize: PixelSize(width: 320, height: 240), focusable: false)
        let rig = try ApplianceRig(
            board: board, gpio: gpio, loop: loop, specs: [spec], photoStore: photoStore)
        var settings = VideoSettings()
        settings.size = size
        settings.fps = fps
        settings.bitRate = 800_000
        settings.maxDurationSeconds = maxSeconds
        let pick = try settings.pickEncoder(hardwareEncoder: false) { $0 == .libx264 }
        rig.appliance.attachRecorder(
            ClipRecorder(
                loop: rig.loop, backend: SimulatedVideoBackend(), store: clips, settings: settings,
                pick: pick,
                ringSeconds: ringSeconds))
        rig.loop.advance(by: .seconds(4))
        return rig
    }
}
