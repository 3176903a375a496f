import FileSystem
import Foundation

/// An app's launch code run on a thread of its own, so the launch watchdog
/// can stop waiting for it: ``run(limit:)`` returns when the code returns,
/// throws, or the limit passes, whichever comes first.
final class WatchdogCall: @unchecked Sendable {
    /// How the call ended, as far as the watchdog knows.
    enum Ending {
        case returned
        case threw(any Error)
        case timedOut
    }

    /// How long a launch waits for abandoned launch code to notice the kill.
    static let abandonGrace: TimeInterval = 2
    /// The launch code's stack, as large as a main thread's (8 MiB), since
    /// the code was written for one.
    static let stackSize = 8 << 20

    // `body` runs once on its own thread.
    private let body: () throws -> Void
    private let ending = Locked<Ending?>(nil)

    init(_ body: @escaping () throws -> Void) { self.body = body }

    /// Starts the code and waits up to `limit` seconds for it.
    func run(limit: TimeInterval) -> Ending {
        let thread = Thread { [self] in
            let result: Ending
            do { try body(); result = .returned } catch { result = .threw(error) }
            ending.withLock { $0 = result }
        }
        thread.name = "launch"
        thread.stackSize = Self.stackSize
        thread.start()
        return waitForEnd(timeout: limit) ?? .timedOut
    }

    /// Waits up to `timeout` seconds for the code to end; nil if it has not.
    @discardableResult
    func waitForEnd(timeout: TimeInterval) -> Ending? {
        ending.withLock(when: { $0 != nil }, timeout: .timeout(seconds: timeout)) { $0 } ?? nil
    }
}
