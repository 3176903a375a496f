import Foundation

/// Waits until `condition` holds, checking every few milliseconds; returns
/// whether it held before `timeout` seconds passed.
func eventually(timeout: TimeInterval = 5, _ condition: () throws -> Bool) rethrows -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
        if try condition() { return true }
        Thread.sleep(forTimeInterval: 0.005)
    }
    return try condition()
}

/// The first element of `sequence` that satisfies `predicate`, or `nil` after `timeout` seconds.
func firstElement<S: AsyncSequence & Sendable>(
    of sequence: S, timeout: TimeInterval = 5, where predicate: @escaping @Sendable (S.Element) -> Bool
) async -> S.Element? where S.Element: Sendable {
    await withTaskGroup(of: S.Element?.self) { group in
        group.addTask {
            do {
                for try await element in sequence where predicate(element) { return element }
            } catch {}
            return nil
        }
        group.addTask {
            try? await Task.sleep(for: .seconds(timeout))
            return nil
        }
        let first = await group.next() ?? nil
        group.cancelAll()
        return first
    }
}
