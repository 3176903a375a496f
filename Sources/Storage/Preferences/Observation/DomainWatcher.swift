import Foundation

/// Calls `check` every `interval` seconds on a private queue until cancelled.
///
/// Another process's write shows up as a replaced file; a poll that re-reads
/// the (small) file and compares its bytes catches every write, where an
/// inode-and-mtime stamp can miss two writes within one timestamp tick that
/// reuse an inode number.
final class DomainWatcher: @unchecked Sendable {
    private let timer: DispatchSourceTimer

    init(interval: TimeInterval, check: @escaping @Sendable () -> Void) {
        timer = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "Preferences.DomainWatcher", qos: .utility))
        let nanoseconds = Int(max(interval, 0.001) * 1e9)
        timer.schedule(deadline: .now() + .nanoseconds(nanoseconds), repeating: .nanoseconds(nanoseconds),
                       leeway: .nanoseconds(nanoseconds / 10))
        timer.setEventHandler(handler: check)
        timer.resume()
    }

    func cancel() { timer.cancel() }
}
