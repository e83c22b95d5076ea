// The fuzzer's photo store and encoder: counts photos in memory, encodes nothing.

import PinholeAppliance
import PinholeCapture
import PinholeCore
import PinholeImaging
import Synchronization
import SystemPackage

/// Stores photos as a count (called from the loop's worker thread, so behind a mutex).
final class FuzzPhotoStore: PhotoStore {
    private let count = Mutex(0)

    func store(jpeg: [UInt8], metadata: PhotoMetadata) throws -> SavedPhoto {
        let n = count.withLock {
            $0 += 1
            return $0
        }
        return SavedPhoto(id: "photo\(n)", file: FilePath("/mem/photo\(n).jpg"))
    }

    func photoCount() throws -> Int { count.withLock { $0 } }

    func freeBytes() -> Int64? { 5 << 30 }
}

/// Encodes nothing: the fuzzer exercises the command layer, not JPEG.
struct FuzzEncoder: StillEncoder {
    func encode(image: RawImage, metadata: PhotoMetadata) throws -> [UInt8] { [0xFF, 0xD8, 0xFF, 0xD9] }
}

/// Stores clips as counts of bytes (the fuzzer records for as long as it likes).
final class FuzzClipStore: ClipStore, @unchecked Sendable {
    final class Clip: ClipRecording {
        var bytes: Int64 = 0
        func write(_ bytes: UnsafeRawBufferPointer) throws(VideoError) { self.bytes += Int64(bytes.count) }
        func fragmentCompleted() throws(VideoError) {}
        func complete(_ facts: ClipFacts) throws -> SavedClip {
            SavedClip(
                id: "clip", path: "/mem/clip.mp4", byteCount: bytes, frameCount: facts.frameCount,
                durationSeconds: Double(facts.durationMicroseconds) / 1_000_000)
        }
        func discard() {}
    }

    func beginClip(startedAt: WallTime?) throws -> any ClipRecording { Clip() }
}
