import FileSystem
import Foundation
import OrderedCollections
import PropertyList

/// An app's preferences, searched as `UserDefaults` searches them: the
/// argument domain, the app's (or suite's) domain, the global domain, then
/// the registration domain.
///
/// Values are property-list values. Reads come from memory; `set` changes
/// memory at once and the file a moment later: a burst of changes becomes
/// one write, made by merging only this process's changed keys into the
/// file as another process may have left it, under a file lock.
///
/// ```swift
/// let prefs = try Preferences(domainFile: url)
/// prefs.register(defaults: ["Theme": "light"])
/// prefs.set(true, forKey: "TermsAccepted")
/// try prefs.synchronize()
/// ```
public final class Preferences: Sendable {
    /// How a store behaves; the defaults suit an app.
    public struct Configuration: Sendable {
        /// The process's launch arguments; their `-key value` pairs form
        /// the argument domain (see ``ArgumentDomain``).
        public var arguments: [String]
        /// How long after a change the file is written, so that a burst
        /// of changes is one write; `nil` writes only on ``synchronize()``,
        /// ``flush(durability:)`` and the lifecycle hooks.
        public var coalescingDelay: TimeInterval?
        /// How often an observed domain's file is checked for another
        /// process's writes.
        public var observationInterval: TimeInterval
        /// Whether every `Preferences` of one file in this process shares
        /// one in-memory domain (as `CFPreferences` does). Tests that play
        /// two processes in one turn this off.
        public var sharesDomainsInProcess: Bool
        /// How the lifecycle hooks write.
        public var lifecycleDurability: PreferencesDurability

        /// Creates a configuration.
        public init(arguments: [String] = [], coalescingDelay: TimeInterval? = 0.05,
                    observationInterval: TimeInterval = 0.1, sharesDomainsInProcess: Bool = true,
                    lifecycleDurability: PreferencesDurability = .durable) {
            self.arguments = arguments
            self.coalescingDelay = coalescingDelay
            self.observationInterval = observationInterval
            self.sharesDomainsInProcess = sharesDomainsInProcess
            self.lifecycleDurability = lifecycleDurability
        }
    }

    /// The name `UserDefaults` gives the global domain.
    public static let globalDomainName = "NSGlobalDomain"
    /// The file name of the global domain.
    public static let globalDomainFileName = ".GlobalPreferences.plist"

    /// The argument domain's values; fixed at creation.
    public let argumentValues: [String: PropertyListValue]
    let primary: PersistentDomain
    let global: PersistentDomain?
    private let hasArguments: Bool
    let configuration: Configuration
    /// The home directory `~` stands for in stored file paths (the
    /// container's root for an app), if any.
    public let homeDirectory: String?

    private let registration = Locked<[String: PropertyListValue]>([:])
    let registrationObservers = ObserverList()

    /// Preferences whose domain is the file `domainFile` (written in binary,
    /// read in any plist format), with the global domain read from
    /// `globalDomainFile` if given. `homeDirectory` is what `~` stands for
    /// in stored file URLs.
    public convenience init(domainFile: URL, globalDomainFile: URL? = nil, homeDirectory: URL? = nil,
                            configuration: Configuration = .init()) throws {
        guard !domainFile.path.isEmpty, domainFile.lastPathComponent != "/" else {
            throw PreferencesError(.invalidDomainName, path: domainFile.path, "a domain file needs a file name")
        }
        self.init(primary: FileDomainStorage(path: domainFile.standardizedFileURL.path),
                  global: globalDomainFile.map { FileDomainStorage(path: $0.standardizedFileURL.path) },
                  homeDirectory: homeDirectory?.standardizedFileURL.path, configuration: configuration)
    }

    init(primary: any DomainStorage, global: (any DomainStorage)?, homeDirectory: String?, configuration: Configuration) {
        self.configuration = configuration
        self.homeDirectory = homeDirectory
        argumentValues = ArgumentDomain.values(from: configuration.arguments)
        hasArguments = !argumentValues.isEmpty
        self.primary = Self.domain(for: primary, configuration)
        self.global = global.map { Self.domain(for: $0, configuration) }
    }

    private static func domain(for storage: any DomainStorage, _ configuration: Configuration) -> PersistentDomain {
        let make = {
            PersistentDomain(storage: storage, coalescingDelay: configuration.coalescingDelay,
                             observationInterval: configuration.observationInterval)
        }
        guard configuration.sharesDomainsInProcess else { return make() }
        return DomainRegistry.shared.domain(forPath: storage.path, make)
    }

    /// The file of this store's own domain.
    public var domainPath: String { primary.storage.path }

    // MARK: Searching

    /// The value for `key` from the first domain in the search list that
    /// has it, or `nil`.
    public func object(forKey key: String) -> PropertyListValue? {
        if hasArguments, let value = argumentValues[key] { return value }
        if let value = primary.value(forKey: key) { return value }
        if let global, let value = global.value(forKey: key) { return value }
        return registration.withLock { $0[key] }
    }

    /// Every key visible through the search list with the value it reads as.
    public func dictionaryRepresentation() -> [String: PropertyListValue] {
        var result = registration.withLock { $0 }
        if let global { result.merge(global.snapshot.lazy.map { ($0.key, $0.value) }) { _, new in new } }
        result.merge(primary.snapshot.lazy.map { ($0.key, $0.value) }) { _, new in new }
        result.merge(argumentValues) { _, new in new }
        return result
    }

    /// This store's own domain as the file holds it with this process's
    /// changes, in file order (`persistentDomain(forName:)`).
    public var persistentDomain: OrderedDictionary<String, PropertyListValue> { primary.snapshot }

    // MARK: Changing

    /// Sets `key` in this store's own domain, or removes it when `value` is nil.
    public func set(_ value: PropertyListValue?, forKey key: String) {
        primary.set(value, forKey: key)
    }

    /// Removes `key` from this store's own domain; a lower domain's value
    /// shows through again.
    public func removeObject(forKey key: String) {
        primary.set(nil, forKey: key)
    }

    /// Replaces this store's whole domain (`setPersistentDomain(_:forName:)`).
    public func setPersistentDomain(_ values: OrderedDictionary<String, PropertyListValue>) {
        primary.replaceAll(with: values)
    }

    /// Empties this store's domain (`removePersistentDomain(forName:)`).
    public func removePersistentDomain() {
        primary.replaceAll(with: [:])
    }

    /// Adds `defaults` to the registration domain, the last place a key is
    /// looked for. Registered values are never written to a file; a later
    /// registration of a key replaces the earlier one.
    public func register(defaults: [String: PropertyListValue]) {
        let changed = registration.withLock { registration in
            var changed = Set<String>()
            for (key, value) in defaults where registration[key] != value {
                registration[key] = value
                changed.insert(key)
            }
            return changed
        }
        if !changed.isEmpty { registrationObservers.notify(PreferencesChange(keys: changed, origin: .thisProcess)) }
    }

    /// Registers the `DefaultValue`s of the settings bundle inside `bundle`
    /// (see ``SettingsBundleDefaults``).
    public func registerSettingsBundleDefaults(inBundle bundle: URL) throws {
        register(defaults: try SettingsBundleDefaults.values(inBundle: bundle))
    }

    // MARK: State

    /// What this store's domain has written so far in this process (shared
    /// by every `Preferences` of the domain).
    public var statistics: PreferencesStatistics { primary.currentStatistics }

    /// The last problem met reading or writing the domain in the
    /// background: a damaged file read as empty, or a coalesced write that
    /// failed. `nil` once a write succeeds.
    public var lastProblem: PreferencesError? { primary.lastProblem }

    /// Whether changes made here are still waiting to be written.
    public var hasUnflushedChanges: Bool { primary.hasUnflushedChanges }
}
