import Foundation

/// Runs `body` on a thread of its own and waits for it without holding a
/// thread of Swift's cooperative pool.
///
/// The pool has one thread a core (two here), shared by every suite that
/// runs at once. Work that blocks for long (a fuzzer that runs for minutes)
/// would stall the other suites on it; work that must keep its own time (a
/// poll of a child process every few hundred microseconds) would wait for a
/// free pool thread after each sleep, and fall far behind the child while
/// the other suites keep the pool busy.
public func offThePool<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread { continuation.resume(with: Result { try body() }) }.start()
    }
}
