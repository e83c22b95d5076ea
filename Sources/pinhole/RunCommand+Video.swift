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
        // The ring reaches back as far as [video] pre_roll_s, every trigger clip's pre_s and,
        // with Live Photos on, their window.
        let ringSeconds =
            ([video.preRollSeconds, live ? ClipRecorder.liveRingSeconds(video) : 0]
            + appliance.board.triggers.compactMap(\.clip?.preSeconds)).max() ?? 0
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

    /// `pinhole doctor`'s line: which encoder a recording will use on this board, and why; a
    /// problem (recording stays off) when `[video] encoder` asks for one that is not here, or
    /// when libav cannot be loaded (doctor loads it, as the first recording would).
    static func encoderDoctorItem(_ video: VideoSettings) -> DoctorItem {
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
            return DoctorItem(
                name: "video encoder",
                ok: true,
                detail:
                    "recordings use \(pick.kind.codecName) (\(pick.reason)); \(video.size) at \(video.fps) fps;"
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
