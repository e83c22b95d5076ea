// Encodes an image's bands on all cores and writes each to a sink, in order, as soon as it can.

import Dispatch
import PinholeCore

/// Shared by the band workers: which band is next to encode and to write, and the finished
/// bands waiting for their turn. Every access holds `lock`. `slots` bounds the bands held at
/// once (being encoded or waiting): a worker takes a slot before it claims a band, and the
/// slot comes back when that band is written or dropped.
private final class BandStream: @unchecked Sendable {
    let lock = DispatchSemaphore(value: 1)
    let slots: DispatchSemaphore
    let sink: any ByteSink
    let plan: BandPlan
    let app1: [UInt8]?
    var nextToEncode = 0
    var nextToWrite = 0
    var waiting: [TJBuffer?]
    var failure: Error?
    var firstScanStart = 0

    init(sink: any ByteSink, plan: BandPlan, app1: [UInt8]?, window: Int) {
        slots = DispatchSemaphore(value: window)
        self.sink = sink
        self.plan = plan
        self.app1 = app1
        waiting = Array(repeating: nil, count: plan.count)
    }

    /// The next band to encode once a slot is free, or nil when all are taken or one failed.
    func claim() -> Int? {
        slots.wait()
        lock.wait()
        defer { lock.signal() }
        guard failure == nil, nextToEncode < plan.count else {
            slots.signal()
            return nil
        }
        nextToEncode += 1
        return nextToEncode - 1
    }

    /// Records band `index` and writes every band whose turn has come.
    func finished(_ index: Int, _ result: Result<TJBuffer, Error>) {
        lock.wait()
        defer { lock.signal() }
        guard failure == nil else {
            slots.signal()
            return
        }
        do {
            waiting[index] = try result.get()
            while nextToWrite < plan.count, let band = waiting[nextToWrite] {
                waiting[nextToWrite] = nil
                try write(band, index: nextToWrite)
                nextToWrite += 1
                slots.signal()
            }
        } catch {
            failure = error
            // This band's slot (unless it was written, failing, above) and those of the dropped.
            let held = waiting.indices.filter { waiting[$0] != nil || $0 == index }.count
            waiting = waiting.map { _ in nil }
            for _ in 0..<held { slots.signal() }
        }
    }

    private func write(_ band: TJBuffer, index: Int) throws {
        if index == 0 {
            let (header, scanStart) = try BandJoiner.header(of: band, plan: plan, app1: app1)
            firstScanStart = scanStart
            try header.withUnsafeBytes { try sink.write($0) }
        }
        let data = try BandJoiner.entropyData(of: band, index: index, firstScanStart: firstScanStart)
        try sink.write(UnsafeRawBufferPointer(data))
        let marker: [UInt8] = index < plan.count - 1 ? [0xFF, 0xD0 + UInt8(index % 8)] : [0xFF, 0xD9]
        try marker.withUnsafeBytes { try sink.write($0) }
    }
}

/// Writes a banded baseline JPEG (the layout `BandJoiner` makes) to a sink while it is being
/// encoded: `threads` workers take bands in order, and each finished band is written as soon
/// as every band before it has been, then freed. Only the bands being encoded or waiting for
/// an earlier one are in memory — at most one more than there are workers — never the whole
/// JPEG.
enum BandStreamer {
    static func encode(
        _ image: RawImage, plan: BandPlan, threads: Int, quality: Int, app1: [UInt8]?, into sink: any ByteSink
    ) throws {
        let stream = BandStream(sink: sink, plan: plan, app1: app1, window: max(1, threads) + 1)
        BandEncoder.withPlaneBases(image.planes) { bases in
            let work: @Sendable (Int) -> Void = { _ in
                while let index = stream.claim() {
                    stream.finished(
                        index,
                        Result {
                            try BandEncoder.encodeBand(
                                image: image, bases: bases, rows: plan.rows(of: index), quality: quality)
                        })
                }
            }
            let workers = min(threads, plan.count)
            if workers <= 1 {
                work(0)
            } else {
                DispatchQueue.concurrentPerform(iterations: workers, execute: work)
            }
        }
        if let failure = stream.failure { throw failure }
    }
}
