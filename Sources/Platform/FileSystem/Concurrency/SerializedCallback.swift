/// A caller's closure that is not `Sendable` (a progress callback, say),
/// called from several worker threads one call at a time.
///
/// ```swift
/// let report = progress.map(SerializedCallback.init)
/// DispatchQueue.concurrentPerform(iterations: 4) { _ in
///     report?(1)
/// }
/// ```
///
/// `@unchecked Sendable`: the closure is only ever called under `lock`, so
/// its calls never overlap, and it is otherwise the caller's to make safe to
/// call from a thread other than its own (as the closure's documentation
/// says where it is taken).
public final class SerializedCallback<Argument: Sendable>: @unchecked Sendable {
    private let lock = Locked(())
    private let body: (Argument) -> Void

    /// Wraps `body`.
    public init(_ body: @escaping (Argument) -> Void) { self.body = body }

    /// Calls the closure with `argument`, after any call under way ends.
    public func callAsFunction(_ argument: Argument) {
        lock.withLock { _ in body(argument) }
    }
}
