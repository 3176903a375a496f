import Foundation

/// The domains open in this process, one per file, so every `Preferences`
/// of a domain sees the same values and changes, as `CFPreferences` shares
/// one cache per process.
final class DomainRegistry: @unchecked Sendable {
    static let shared = DomainRegistry()

    private final class WeakDomain {
        weak var domain: PersistentDomain?
        init(_ domain: PersistentDomain) { self.domain = domain }
    }

    private let lock = NSLock()
    private var domains: [String: WeakDomain] = [:]

    /// The open domain for `path`, or the one `make` opens.
    func domain(forPath path: String, _ make: () -> PersistentDomain) -> PersistentDomain {
        lock.lock()
        defer { lock.unlock() }
        if let existing = domains[path]?.domain { return existing }
        let domain = make()
        domains[path] = WeakDomain(domain)
        if domains.count > 64 { domains = domains.filter { $0.value.domain != nil } }
        return domain
    }
}
