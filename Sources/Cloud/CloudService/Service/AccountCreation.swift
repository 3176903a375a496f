import FileSystem
import Foundation

/// Who may create an account on the service.
///
/// Creating an account tells whether its name is taken (a taken name
/// cannot be created twice), so open creation is an oracle for names;
/// it is rate-limited, and an operator can close it.
public enum AccountCreationPolicy: Sendable, Hashable {
    /// Anyone, at most `perMinute` accounts a minute from one client
    /// address, and eight times that from all addresses together.
    case open(perMinute: Int)
    /// Only requests with the operator's token.
    case operatorOnly

    /// The default: open, 5 a minute per address.
    public static let `default` = AccountCreationPolicy.open(perMinute: 5)
}

/// Fixed one-minute windows of account creations, per client address and
/// in all. Held by one process: several server processes each admit their
/// own share.
final class CreationRateLimit: Sendable {
    private struct Window {
        var start: Int64 = 0
        var total = 0
        var byClient: [String: Int] = [:]
    }

    private let window = Locked(Window())
    private let now: @Sendable () -> Int64

    init(now: @escaping @Sendable () -> Int64 = { Int64(Date().timeIntervalSince1970) }) {
        self.now = now
    }

    /// Counts one creation by `client` and returns nil, or the seconds to
    /// wait when the limit is reached (nothing is counted then).
    func admit(client: String, limit: Int) -> Int? {
        let current = now()
        return window.withLock { window -> Int? in
            if current - window.start >= 60 { window = Window(start: current) }
            let wait = Int(max(1, window.start + 60 - current))
            guard limit > 0, window.total < limit * 8, window.byClient[client, default: 0] < limit else { return wait }
            window.total += 1
            window.byClient[client, default: 0] += 1
            return nil
        }
    }
}
