// Recording on `pinhole run`: the [video] settings, the encoder this board can run, clips into the library.

import Logging
import PinholeAppliance
import PinholeBoard
import PinholeCapture
import PinholeCore
import PinholeLibav
import PinholeLibrary
import SystemPackage

extension RunCommand {
    /// Sets up recording (the camera then runs a video stream beside the viewfinder). The
    /// encoder is chosen from the board's devices alone: libav is loaded by the first recording,
    /// whose encoder open confirms the choice. Without an encoder, recording stays off and the
    /// log says why. With `live` (`[capture] live`), every photo is paired with its motion clip,
    /// so the ring reaches around it (and libav is loaded at start, for the ring's encoder).
    static func attachRecorder(
        to appliance: Appliance, video: VideoSettings, live: Bool, library: PhotoLibrary, log: Logger
    ) {
        let backend = LibavVideoBackend()
        let pick: EncoderPick
        do {
            pick = try video.pickEncoder(hardwareEncoder: hasHardwareH264Encoder())
        } catch {
            log.warning("recording is off: \(error)")
            return
        }
        let ringSeconds = Self.ringSeconds(video: video, live: live, board: appliance.board)
        appliance.livePhotos = live
        log.info(
            "recording: \(video.size) \(video.fps) fps, \(pick.kind.codecName) (\(pick.reason)), pre-roll ring \(ringSeconds) s"
        )
        appliance.attachRecorder(
            ClipRecorder(
                loop: appliance.loop, backend: backend, store: LibraryClipStore(library: library),
                settings: video,
                pick: pick, ringSeconds: ringSeconds))
    }

    /// The pre-roll ring's span: as far back as [video] pre_roll_s, every trigger clip's pre_s
    /// and, with Live Photos on, their window.
    static func ringSeconds(video: VideoSettings, live: Bool, board: BoardProfile) -> Double {
        ([video.preRollSeconds, live ? ClipRecorder.liveRingSeconds(video) : 0]
            + board.triggers.compactMap(\.clip?.preSeconds)).max() ?? 0
    }

    /// `pinhole doctor`'s line: which encoder a recording will use on this board, and why (and,
    /// with a pre-roll ring of `ringSeconds`, the keyframe interval it imposes); a problem
    /// (recording stays off) when `[video] encoder` asks for one that is not here, or when libav
    /// cannot be loaded (doctor loads it, as the first recording would).
    static func encoderDoctorItem(_ video: VideoSettings, ringSeconds: Double = 0) -> DoctorItem {
        let backend = LibavVideoBackend()
        let libav: String
        do {
            libav = try backend.load()
        } catch {
            return DoctorItem(
                name: "video encoder", ok: false, detail: "recording is off: \(error)",
                remedy: "run tools/setup (a source build), or reinstall the pinhole package")
        }
        do {
            let pick = try video.pickEncoder(
                hardwareEncoder: hasHardwareH264Encoder(), libavcodecHas: backend.available)
            let ring = video.ringKeyframeNote(ringSeconds).map { "; \($0)" } ?? ""
            return DoctorItem(
                name: "video encoder",
                ok: true,
                detail:
                    "recordings use \(pick.kind.codecName) (\(pick.reason)); \(video.size) at \(video.fps) fps\(ring);"
                    + " FFmpeg \(libav)"
            )
        } catch {
            return DoctorItem(
                name: "video encoder", ok: false, detail: "recording is off: \(error)",
                remedy:
                    "set encoder = \"auto\" in [video], or install FFmpeg's libavcodec with libx264 (tools/setup)"
            )
        }
    }

    /// Whether the board has the Pi 4's V4L2 memory-to-memory H.264 encoder (bcm2835-codec's
    /// encode device, usually /dev/video11), read from sysfs.
    static func hasHardwareH264Encoder(sysfs: FilePath = "/sys/class/video4linux") -> Bool {
        FileSystem.list(sysfs).contains { entry in
            let name = FileSystem.readText(sysfs.appending(entry).appending("name"))
            return name?.contains("bcm2835-codec-encode") ?? false
        }
    }
}
