import FileSystem
import Foundation

extension RepeatingTimer {
    /// Calls `check` every `interval` seconds on a private queue until cancelled.
    ///
    /// Another process's write shows up as a replaced file; a poll that re-reads
    /// the (small) file and compares its bytes catches every write, where an
    /// inode-and-mtime stamp can miss two writes within one timestamp tick that
    /// reuse an inode number.
    static func domainWatcher(interval: TimeInterval, check: @escaping @Sendable () -> Void) -> RepeatingTimer {
        let nanoseconds = Int(max(interval, 0.001) * 1e9)
        let timer = RepeatingTimer(label: "Preferences.DomainWatcher", qos: .utility, interval: .nanoseconds(nanoseconds),
                                   leeway: .nanoseconds(nanoseconds / 10), check)
        timer.start()
        return timer
    }
}
