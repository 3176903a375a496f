#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A value that threads share, reached only under its lock: the one lock
/// type of this package, on every platform it declares.
///
/// Shaped like the standard library's `Synchronization.Mutex` (which needs
/// macOS 15 and iOS 18, where this package goes back to macOS 13 and iOS 16),
/// so that a later move to it is a rename:
///
/// ```swift
/// let total = Locked(0)
/// DispatchQueue.concurrentPerform(iterations: 8) { _ in
///     total.withLock { $0 += 1 }
/// }
/// ```
///
/// It also waits for a condition on the value, which `Mutex` cannot
/// (``withLock(when:timeout:_:)``): a thread that changes the value wakes
/// every thread waiting on it.
///
/// A `pthread_mutex_t` and a `pthread_cond_t` on the heap (a pthread object
/// must not move), no Foundation. Not recursive: taking the lock again from
/// inside `body` deadlocks.
public final class Locked<Value>: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let changed: UnsafeMutablePointer<pthread_cond_t>
    // Guarded by `mutex`: how many threads wait in `withLock(when:…)`, so
    // that an unlock with none waiting signals nothing.
    private var waiters = 0
    // Guarded by `mutex`. Reachable from inlined code (below) so that a
    // `withLock` in another module is specialized for its value and body.
    @usableFromInline var value: Value

    /// A lock around `initialValue`.
    public init(_ initialValue: sending Value) {
        value = initialValue
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        changed = .allocate(capacity: 1)
        changed.initialize(to: pthread_cond_t())
        Self.check(pthread_mutex_init(mutex, nil), "pthread_mutex_init")
        #if canImport(Darwin)
        // Darwin waits for a relative time (see `wait(until:)`).
        Self.check(pthread_cond_init(changed, nil), "pthread_cond_init")
        #else
        // Timed waits count on the monotonic clock, so setting the wall
        // clock neither shortens nor stretches them.
        var attributes = pthread_condattr_t()
        Self.check(pthread_condattr_init(&attributes), "pthread_condattr_init")
        Self.check(pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC), "pthread_condattr_setclock")
        Self.check(pthread_cond_init(changed, &attributes), "pthread_cond_init")
        pthread_condattr_destroy(&attributes)
        #endif
    }

    deinit {
        pthread_cond_destroy(changed)
        changed.deinitialize(count: 1)
        changed.deallocate()
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    /// Runs `body` with the value, holding the lock, and returns what it
    /// returns (or throws what it throws). Threads waiting in
    /// ``withLock(when:timeout:_:)`` look at the value again afterwards.
    @inlinable
    public func withLock<Result, Failure: Error>(
        _ body: (inout sending Value) throws(Failure) -> sending Result
    ) throws(Failure) -> sending Result {
        lock()
        defer { unlock() }
        return try body(&value)
    }

    /// Waits until `condition` holds for the value, then runs `body` with it,
    /// under the lock as ``withLock(_:)`` does. Nil, without running `body`,
    /// if `timeout` passes first; a nil `timeout` waits for as long as it
    /// takes. The condition is tested under the lock, first at once and
    /// then each time another thread's ``withLock(_:)`` ends.
    public func withLock<Result, Failure: Error>(
        when condition: (borrowing Value) -> Bool,
        timeout: Duration? = nil,
        _ body: (inout sending Value) throws(Failure) -> sending Result
    ) throws(Failure) -> sending Result? {
        lock()
        defer { unlock() }
        let deadline = timeout.map(Deadline.init(after:))
        waiters += 1
        while !condition(value) {
            if let deadline {
                guard wait(until: deadline) else { break }
            } else {
                pthread_cond_wait(changed, mutex)
            }
        }
        waiters -= 1
        // Tested once more after a timed-out wait: the value may have
        // changed just as the time ran out.
        guard condition(value) else { return nil }
        return try body(&value)
    }

    @usableFromInline func lock() {
        Self.check(pthread_mutex_lock(mutex), "pthread_mutex_lock")
    }

    @usableFromInline func unlock() {
        if waiters > 0 { pthread_cond_broadcast(changed) }
        Self.check(pthread_mutex_unlock(mutex), "pthread_mutex_unlock")
    }

    /// Waits for a broadcast or until `deadline`; false once it has passed.
    private func wait(until deadline: Deadline) -> Bool {
        #if canImport(Darwin)
        guard var remaining = deadline.remaining else { return false }
        return pthread_cond_timedwait_relative_np(changed, mutex, &remaining) != ETIMEDOUT
        #else
        var time = deadline.time
        return pthread_cond_timedwait(changed, mutex, &time) != ETIMEDOUT
        #endif
    }

    /// A lock call fails only on a programming error (a destroyed or
    /// unowned mutex); going on would corrupt the value.
    private static func check(_ result: Int32, _ call: StaticString) {
        precondition(result == 0, "\(call) failed: \(result)")
    }
}

extension Duration {
    /// A wait of `seconds` (a `TimeInterval`), for
    /// ``Locked/withLock(when:timeout:_:)``: none for a negative count or
    /// NaN, and a century at most (infinity too), where `.seconds(_:)` would
    /// stop the process on a count it cannot hold.
    public static func timeout(seconds: Double) -> Duration {
        guard seconds > 0 else { return .zero }
        return .seconds(min(seconds, maximumWait))
    }

    /// A century: past that, a wait is "for ever" anyway, and a deadline
    /// stays far from `time_t`'s end.
    fileprivate static let maximumWait: Double = 100 * 365 * 86_400
}

/// A point on the monotonic clock, as the timed wait needs it.
private struct Deadline {
    let time: timespec

    init(after duration: Duration) {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        guard duration > .zero else {
            time = now
            return
        }
        let (seconds, attoseconds) = duration.components
        let wholeSeconds = min(seconds, Int64(Duration.maximumWait))
        let nanoseconds = Int(now.tv_nsec) + Int(attoseconds / 1_000_000_000)
        time = timespec(tv_sec: now.tv_sec + time_t(wholeSeconds) + time_t(nanoseconds / 1_000_000_000),
                        tv_nsec: numericCast(nanoseconds % 1_000_000_000))
    }

    /// The time left until the deadline; nil once it has passed.
    var remaining: timespec? {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        var seconds = Int(time.tv_sec) - Int(now.tv_sec)
        var nanoseconds = Int(time.tv_nsec) - Int(now.tv_nsec)
        if nanoseconds < 0 {
            nanoseconds += 1_000_000_000
            seconds -= 1
        }
        guard seconds > 0 || (seconds == 0 && nanoseconds > 0) else { return nil }
        return timespec(tv_sec: time_t(seconds), tv_nsec: numericCast(nanoseconds))
    }
}
