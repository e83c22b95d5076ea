// The web server's backend on the running appliance: commands and PIN checks on its loop.

import PinholeAppliance
import PinholeConsole
import PinholeCore
import PinholeImaging
import Synchronization

/// Hands the web server's requests to the appliance's loop and answers when the loop has:
/// commands go through the line-mode console's queue (the same typed commands, the same
/// handlers), PINs through the console's hash and lock-out. The loop never waits for the
/// server: it posts answers to continuations and returns.
public final class ApplianceWebBackend: WebBackend {
    private let loop: EventLoop
    private let console: LoopBound<LineModeConsole>
    private let appliance: LoopBound<Appliance>
    private let encoder = JPEGEncoder(quality: 70, threads: 1)
    private let subscribers = Mutex<[Int: AsyncStream<String>.Continuation]>([:])
    private let nextSubscriber = Atomic<Int>(0)
    private let pinChanges = Atomic<Int>(0)
    /// The live view's longest side at most, in pixels.
    private let liveLongestSide: Int
    /// The library, read through the menu's protocol.
    public let library: any WebLibraryReading

    /// Creates the backend on the loop (it observes the appliance's events from now on). Live
    /// frames are scaled down to `liveLongestSide` pixels on their longest side at most.
    public init(
        console: LineModeConsole, appliance: Appliance, library: any WebLibraryReading,
        liveLongestSide: Int = 640
    ) {
        loop = appliance.loop
        self.liveLongestSide = liveLongestSide
        self.console = LoopBound(console, loop: appliance.loop)
        self.appliance = LoopBound(appliance, loop: appliance.loop)
        self.library = library
        console.onPINChange = { [weak self] in
            guard let self else { return }
            pinChanges.add(1, ordering: .relaxed)
            publish("web: the PIN changed: every web session has ended")
        }
        appliance.observe { [weak self, unowned appliance] event in
            guard let self, let text = LineModeConsole.eventText(event, appliance: appliance) else { return }
            self.publish(text)
        }
    }

    /// Sends one line to every event stream (also used for the web's own notices).
    public func publish(_ text: String) {
        for continuation in subscribers.withLock({ Array($0.values) }) { continuation.yield(text) }
    }

    /// Queues the command on the console behind the ones before it; answers when it has run.
    public func run(_ invocation: ConsoleInvocation) async -> String {
        await withCheckedContinuation { continuation in
            loop.post { [console] in
                console.value.submitAuthorized(invocation) { continuation.resume(returning: $0) }
            }
        }
    }

    /// Checks the PIN on the loop's worker and records it in the console's lock-out.
    public func login(pin: String) async -> WebLoginOutcome {
        await withCheckedContinuation { continuation in
            loop.post { [console, loop] in
                let lineMode = console.value
                guard let hash = lineMode.access.pinHash else {
                    return continuation.resume(returning: .accepted)
                }
                guard let hashing = lineMode.pinHashing else {
                    return continuation.resume(returning: .lockedOut(seconds: 0))
                }
                guard lineMode.access.mayTry(at: loop.now) else {
                    return continuation.resume(
                        returning: .lockedOut(seconds: lineMode.access.lockoutRemaining(at: loop.now)))
                }
                // The hash is slow on purpose: checked on the worker, recorded on the loop.
                loop.offload({ hashing.verify(pin, hash) }) { correct in
                    let lineMode = console.value
                    switch lineMode.access.record(correct: correct, at: loop.now, unlocking: false) {
                    case .unlocked: continuation.resume(returning: .accepted)
                    case .wrong(let remaining): continuation.resume(returning: .wrong(remaining: remaining))
                    case .lockedOut(let seconds): continuation.resume(returning: .lockedOut(seconds: seconds))
                    }
                }
            }
        }
    }

    /// How many times the console's PIN changed since the backend was made.
    public var pinGeneration: Int { pinChanges.load(ordering: .relaxed) }

    /// Whether the console has a PIN, read on the loop.
    public func hasPIN() async -> Bool {
        await withCheckedContinuation { continuation in
            loop.post { [console] in continuation.resume(returning: console.value.access.hasPIN) }
        }
    }

    /// The newest frame's viewfinder image (taken on the loop), scaled down to the live view's
    /// bound and encoded off it.
    public func viewfinderFrame() async -> WebFrame? {
        let picture: (RawImage, Int, FrameMetadata?)? = await withCheckedContinuation { continuation in
            loop.post { [appliance] in
                let engine = appliance.value.engine
                continuation.resume(
                    returning: engine.latestViewfinderImage().map {
                        ($0, engine.currentMountRotation, engine.lastFrame)
                    })
            }
        }
        guard let (image, rotation, metadata) = picture,
            let jpeg = try? encoder.encode(LiveFrame.bounded(image, longestSide: liveLongestSide))
        else {
            return nil
        }
        return WebFrame(
            jpeg: jpeg, rotation: rotation, sequence: metadata?.sequence ?? 0,
            exposureStart: metadata?.sensorTimestamp ?? .zero)
    }

    /// A new subscriber's stream of event lines (the newest 64 kept for a slow reader).
    public func events() -> AsyncStream<String> {
        let id = nextSubscriber.add(1, ordering: .relaxed).newValue
        let (stream, continuation) = AsyncStream<String>.makeStream(bufferingPolicy: .bufferingNewest(64))
        continuation.onTermination = { [weak self] _ in
            _ = self?.subscribers.withLock { $0.removeValue(forKey: id) }
        }
        subscribers.withLock { $0[id] = continuation }
        return stream
    }
}
