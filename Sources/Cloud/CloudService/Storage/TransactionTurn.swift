/// Hands one connection to one transaction at a time, in arrival order,
/// without blocking a thread while a transaction waits its turn.
///
/// SQLite's connection is shared by the tasks of one server process; a
/// transaction's statements are separate calls, so another task's
/// statements must not run between them.
actor TransactionTurn {
    private var busy = false
    private var waiting: [CheckedContinuation<Void, Never>] = []

    /// Waits until no other transaction holds the connection, then holds it.
    func take() async {
        if !busy {
            busy = true
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }

    /// Passes the connection to the next waiting transaction, if any.
    func pass() {
        if waiting.isEmpty {
            busy = false
        } else {
            waiting.removeFirst().resume()
        }
    }
}
