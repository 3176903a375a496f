import Dispatch

/// A handler called again and again, `interval` apart, on a serial queue of
/// its own, from ``start()`` until ``cancel()``: a poll that must go on
/// while Swift's cooperative pool is held by synchronous work.
///
/// A Dispatch timer source underneath. Dispatch lets any thread start or
/// cancel one, but corelibs Dispatch does not mark `DispatchSourceTimer`
/// `Sendable`; this type is where that is vouched for, once.
///
/// ```swift
/// let timer = RepeatingTimer(label: "poll", interval: .milliseconds(20)) { check() }
/// timer.start()
/// // …
/// timer.cancel()
/// ```
public final class RepeatingTimer: @unchecked Sendable {
    // Set up in `init`; after that only `activate` and `cancel` are called,
    // which Dispatch allows from any thread, any number of times.
    private let timer: any DispatchSourceTimer

    /// A timer whose first call comes `interval` after it is made (once
    /// started); each call may come up to `leeway` late. Nothing is called
    /// before ``start()``.
    public init(label: String, qos: DispatchQoS = .unspecified, interval: DispatchTimeInterval,
                leeway: DispatchTimeInterval = .nanoseconds(0), _ handler: @escaping @Sendable () -> Void) {
        timer = DispatchSource.makeTimerSource(queue: DispatchQueue(label: label, qos: qos))
        timer.schedule(deadline: .now() + interval, repeating: interval, leeway: leeway)
        timer.setEventHandler(handler: handler)
    }

    // Dispatch stops the process when a source it never activated is
    // released; cancelled first, an activated one calls nothing more.
    deinit {
        timer.cancel()
        timer.activate()
    }

    /// Starts the calls; again is a no-op.
    public func start() { timer.activate() }

    /// Stops the calls; a call under way finishes. Again is a no-op.
    public func cancel() { timer.cancel() }
}
