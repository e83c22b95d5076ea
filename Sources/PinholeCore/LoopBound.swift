// Carries a loop-confined value into a @Sendable closure that will run on that loop.

/// A box for a value that is only ever touched on one event loop's thread.
///
/// `@Sendable` closures posted to the loop (from reader threads, signal threads) may carry
/// it; they must only read `value` once they run on the loop.
public final class LoopBound<Value>: @unchecked Sendable {
    /// The confined value.
    public let value: Value

    /// Wraps a value.
    public init(_ value: Value) { self.value = value }
}
