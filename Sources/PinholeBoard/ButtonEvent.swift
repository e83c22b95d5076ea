// What a debounced button reports.

import PinholeCore

/// A debounced, interpreted button event.
public enum ButtonEvent: Sendable, Hashable {
    /// Pressed; `at` is the first edge of the press (the kernel's timestamp), used for
    /// zero shutter lag.
    case pressed(at: Instant)
    /// Released after `heldFor`.
    case released(at: Instant, heldFor: Duration)
    /// Still pressed after the hold time.
    case held(at: Instant)
    /// Still pressed: the `count`-th repeat after the hold.
    case repeated(at: Instant, count: Int)
}
