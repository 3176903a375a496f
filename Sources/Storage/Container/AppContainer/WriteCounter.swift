import Foundation

/// Bytes written through the container API, shared by every ``AppContainer``
/// value opened on the same root in this process.
final class WriteCounter: @unchecked Sendable {
    // @unchecked: `total` is only touched with `lock` held.
    private let lock = NSLock()
    private var total: UInt64 = 0

    func add(_ count: Int) {
        lock.lock()
        total &+= UInt64(max(0, count))
        lock.unlock()
    }

    var value: UInt64 {
        lock.lock()
        defer { lock.unlock() }
        return total
    }

    private static let registryLock = NSLock()
    nonisolated(unsafe) private static var registry: [String: WriteCounter] = [:]

    /// The counter for a root path (created on first use).
    static func shared(for root: String) -> WriteCounter {
        registryLock.lock()
        defer { registryLock.unlock() }
        if let counter = registry[root] { return counter }
        let counter = WriteCounter()
        registry[root] = counter
        return counter
    }
}
