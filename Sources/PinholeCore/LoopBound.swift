// Carries a loop-confined value into a @Sendable closure that will run on that loop.

/// A box for a value that is only ever touched on one event loop's thread.
///
/// `@Sendable` closures posted to the loop (from reader threads, signal threads) may carry
/// it; they may only read `value` once they run on the loop, and every read checks that
/// (in every build, like `EventLoop.preconditionInLoop()`).
public final class LoopBound<Value>: @unchecked Sendable {
    /// The loop the value belongs to.
    public let loop: EventLoop
    private let confined: Value

    /// Wraps a value confined to `loop`; create it on the loop.
    public init(_ value: Value, loop: EventLoop) {
        loop.preconditionInLoop("LoopBound.init")
        self.loop = loop
        self.confined = value
    }

    /// The confined value; traps when read off the loop's thread (release builds too).
    public var value: Value {
        loop.preconditionInLoop("LoopBound.value")
        return confined
    }
}
