import FileSystem

/// Bytes written through the container API, shared by every ``AppContainer``
/// value opened on the same root in this process.
final class WriteCounter: Sendable {
    private let total = Locked<UInt64>(0)

    func add(_ count: Int) {
        total.withLock { $0 &+= UInt64(max(0, count)) }
    }

    var value: UInt64 {
        total.withLock { $0 }
    }

    private static let registry = Locked<[String: WriteCounter]>([:])

    /// The counter for a root path (created on first use).
    static func shared(for root: String) -> WriteCounter {
        registry.withLock { registry in
            if let counter = registry[root] { return counter }
            let counter = WriteCounter()
            registry[root] = counter
            return counter
        }
    }
}
