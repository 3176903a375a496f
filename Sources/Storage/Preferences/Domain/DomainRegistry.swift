import FileSystem

/// The domains open in this process, one per file, so every `Preferences`
/// of a domain sees the same values and changes, as `CFPreferences` shares
/// one cache per process.
final class DomainRegistry: Sendable {
    static let shared = DomainRegistry()

    private struct WeakDomain {
        weak var domain: PersistentDomain?
    }

    private let domains = Locked<[String: WeakDomain]>([:])

    /// The open domain for `path`, or the one `make` opens.
    func domain(forPath path: String, _ make: () -> PersistentDomain) -> PersistentDomain {
        domains.withLock { domains in
            if let existing = domains[path]?.domain { return existing }
            let domain = make()
            domains[path] = WeakDomain(domain: domain)
            if domains.count > 64 { domains = domains.filter { $0.value.domain != nil } }
            return domain
        }
    }
}
