import Dispatch

/// Blocking file-system work run off Swift's cooperative pool.
///
/// The cooperative pool has one thread per core (two on the machines this
/// package is tested on). A `pread`, an `fsync` or a whole backup run on one
/// of them holds every other task's continuation behind it: the server's
/// token checks waited on a chunk store's fsyncs, and a device's iCloud
/// backup on its own staging copy. ``run(_:)`` hands the work to a
/// Dispatch queue of its own, whose threads may block, and suspends the
/// calling task until the work is done.
///
/// ```swift
/// let bytes = try await BlockingIO.run { () throws(FileSystemError) in
///     try FileSystemPaths.readFile(atPath: path)
/// }
/// ```
public enum BlockingIO {
    /// Runs `work` on a thread that may block and returns what it returns,
    /// or throws what it throws. The task's cancellation does not stop
    /// `work`: a write once begun is finished (or fails) whole.
    public static func run<Value: Sendable, Failure: Error>(
        _ work: @escaping @Sendable () throws(Failure) -> Value
    ) async throws(Failure) -> Value {
        let result: Result<Value, Failure> = await withCheckedContinuation { continuation in
            queue.async {
                continuation.resume(returning: Result { () throws(Failure) -> Value in try work() })
            }
        }
        return try result.get()
    }

    /// Concurrent, so independent work runs side by side; Dispatch adds
    /// threads as the ones it has block.
    private static let queue = DispatchQueue(label: "FileSystem.BlockingIO", qos: .utility, attributes: .concurrent)
}
