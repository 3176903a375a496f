/// Hands each of a few connections to one transaction at a time, in
/// arrival order, without blocking a thread while a transaction waits its
/// turn.
///
/// SQLite's connections are shared by the tasks of one server process; a
/// transaction's statements are separate calls, so another task's
/// statements must not run between them on the same connection.
actor TransactionTurn {
    /// Which connections are free.
    private var free: [Int]
    private var waiting: [CheckedContinuation<Int, Never>] = []

    /// A turn over `connections` connections (numbered from 0).
    init(connections: Int = 1) {
        free = Array((0..<max(1, connections)).reversed())
    }

    /// Waits until a connection is free, then holds it and returns its number.
    func take() async -> Int {
        if let connection = free.popLast() { return connection }
        return await withCheckedContinuation { waiting.append($0) }
    }

    /// Passes `connection` to the next waiting transaction, if any.
    func pass(_ connection: Int) {
        if waiting.isEmpty {
            free.append(connection)
        } else {
            waiting.removeFirst().resume(returning: connection)
        }
    }
}
