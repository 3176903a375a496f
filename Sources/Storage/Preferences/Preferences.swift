import Container
import FileSystem
import Foundation
import KeyedArchive
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

extension Preferences {
    /// The value for `key` as a Boolean, converted as Foundation converts
    /// (`1`, `2.5`, `"YES"`, `"true"` are `true`); `false` when missing or
    /// not convertible.
    public func bool(forKey key: String) -> Bool {
        object(forKey: key).flatMap(ValueCoercion.bool) ?? false
    }

    /// The value for `key` as an integer (reals truncated, Booleans 0 or 1,
    /// strings read as `NSString.integerValue`); 0 when missing.
    public func integer(forKey key: String) -> Int {
        object(forKey: key).flatMap(ValueCoercion.integer) ?? 0
    }

    /// The value for `key` as a double (integers and Booleans widened,
    /// strings read as `NSString.doubleValue`); 0 when missing.
    public func double(forKey key: String) -> Double {
        object(forKey: key).flatMap(ValueCoercion.double) ?? 0
    }

    /// The value for `key` as a float; 0 when missing.
    public func float(forKey key: String) -> Float {
        Float(double(forKey: key))
    }

    /// The string for `key`, or a number's text (`NSNumber.stringValue`);
    /// `nil` for other types.
    public func string(forKey key: String) -> String? {
        object(forKey: key).flatMap(ValueCoercion.string)
    }

    /// The data for `key`, if it is data.
    public func data(forKey key: String) -> Data? {
        object(forKey: key)?.dataValue
    }

    /// The date for `key`, if it is a date.
    public func date(forKey key: String) -> Date? {
        object(forKey: key)?.dateValue
    }

    /// The array for `key`, if it is an array.
    public func array(forKey key: String) -> [PropertyListValue]? {
        object(forKey: key)?.arrayValue
    }

    /// The array for `key`, if it is an array of strings only.
    public func stringArray(forKey key: String) -> [String]? {
        guard let elements = array(forKey: key) else { return nil }
        var strings: [String] = []
        strings.reserveCapacity(elements.count)
        for element in elements {
            guard let text = element.stringValue else { return nil }
            strings.append(text)
        }
        return strings
    }

    /// The dictionary for `key`, if it is a dictionary.
    public func dictionary(forKey key: String) -> [String: PropertyListValue]? {
        guard let entries = object(forKey: key)?.dictionaryValue else { return nil }
        return Dictionary(uniqueKeysWithValues: entries.map { ($0.key, $0.value) })
    }

    /// The URL for `key`, read as Foundation's `url(forKey:)` reads it: a
    /// string is a file path (`~` is the home directory), data is an
    /// archived `NSURL` as ``set(_:forKey:)-(URL,_)`` stores a non-file URL.
    public func url(forKey key: String) -> URL? {
        switch object(forKey: key) {
        case .string(let path):
            return URL(fileURLWithPath: URLValue.expandingTilde(path, home: homeDirectory))
        case .data(let archive):
            return try? KeyedUnarchiver.unarchive(URL.self, from: archive)
        default:
            return nil
        }
    }
}

extension Preferences {
    /// An app's preferences in its container, the normal way to open them:
    /// the domain `Library/Preferences/<bundle id>.plist`, read and replaced
    /// atomically through the container's confined file API (so its writes
    /// count in ``AppContainer/bytesWritten``), locked with the container's
    /// lock file. `~` in stored file URLs stands for the container root.
    ///
    /// - Parameters:
    ///   - container: The app's data container.
    ///   - bundleIdentifier: The domain name; by default the
    ///     `CFBundleIdentifier` of the container's app bundle.
    ///   - globalDomainFile: The device's global domain
    ///     (`.GlobalPreferences.plist`), read-only for the app, if any.
    /// - Throws: ``PreferencesError`` `.invalidDomainName` when no bundle
    ///   identifier is given and the bundle has none to read.
    public convenience init(container: AppContainer, bundleIdentifier: String? = nil, globalDomainFile: URL? = nil,
                            configuration: Configuration = .init()) throws {
        let domain = try bundleIdentifier ?? Self.bundleIdentifier(of: container)
        try Self.checkDomainName(domain)
        self.init(primary: ContainerDomainStorage(container: container, relativePath: Self.domainPath(domain)),
                  global: globalDomainFile.map { FileDomainStorage(path: $0.standardizedFileURL.path) },
                  homeDirectory: container.root.standardizedFileURL.path, configuration: configuration)
    }

    /// The preferences of an app group (`UserDefaults(suiteName:)`) in its
    /// shared group container: `Library/Preferences/<suiteName>.plist`,
    /// written through the container's file API. Names are checked as by
    /// ``init(suiteName:groupContainer:applicationIdentifier:globalDomainFile:configuration:)``.
    public convenience init(suiteName: String, groupContainer: AppContainer, applicationIdentifier: String? = nil,
                            globalDomainFile: URL? = nil, configuration: Configuration = .init()) throws {
        try Self.checkSuiteName(suiteName, applicationIdentifier: applicationIdentifier)
        self.init(primary: ContainerDomainStorage(container: groupContainer, relativePath: Self.domainPath(suiteName)),
                  global: globalDomainFile.map { FileDomainStorage(path: $0.standardizedFileURL.path) },
                  homeDirectory: groupContainer.root.standardizedFileURL.path, configuration: configuration)
    }

    /// `Library/Preferences/<domain>.plist`.
    static func domainPath(_ domain: String) -> String {
        ContainerDirectory.preferences.relativePath + "/" + domain + ".plist"
    }

    private static func bundleIdentifier(of container: AppContainer) throws -> String {
        guard let bundleURL = container.bundleURL else {
            throw PreferencesError(.invalidDomainName, path: container.root.path,
                                   "the container has no app bundle to take the bundle identifier from; pass one")
        }
        do {
            return try AppBundle(at: bundleURL).info.identifier
        } catch {
            throw PreferencesError(.invalidDomainName, path: bundleURL.path, "cannot read the bundle identifier").caused(by: error)
        }
    }

    /// A domain name must be one file name in `Library/Preferences`.
    static func checkDomainName(_ domain: String) throws {
        guard !domain.isEmpty, !domain.contains("/"), !domain.hasPrefix("."), !domain.contains("\0") else {
            throw PreferencesError(.invalidDomainName, path: domain, "'\(domain)' cannot name a preferences domain")
        }
    }
}

extension Preferences {
    /// Changes to the values this store reads, as they happen: sets and
    /// removals in this process, registrations, and writes by other
    /// processes (noticed by re-reading the file every
    /// ``Configuration/observationInterval`` while someone is observing,
    /// and on ``synchronize()``).
    ///
    /// With `keys`, only changes touching those keys are reported, trimmed
    /// to them. The sequence ends when the consuming task is cancelled.
    ///
    /// ```swift
    /// for await change in prefs.changes(forKeys: ["Theme"]) { apply(prefs.string(forKey: "Theme")) }
    /// ```
    public func changes(forKeys keys: Set<String>? = nil) -> AsyncStream<PreferencesChange> {
        AsyncStream(bufferingPolicy: .bufferingNewest(1024)) { continuation in
            let forward: @Sendable (PreferencesChange) -> Void = { change in
                guard let keys else { continuation.yield(change); return }
                let touched = change.keys.intersection(keys)
                if !touched.isEmpty { continuation.yield(PreferencesChange(keys: touched, origin: change.origin)) }
            }
            let lists = [primary.observers, registrationObservers] + (global.map { [$0.observers] } ?? [])
            let tokens = lists.map { $0.add(forward) }
            continuation.onTermination = { _ in
                for (list, token) in zip(lists, tokens) { list.remove(token) }
            }
        }
    }
}

extension Preferences {
    /// Sets a Boolean.
    public func set(_ value: Bool, forKey key: String) { set(.bool(value), forKey: key) }

    /// Sets an integer.
    public func set(_ value: Int, forKey key: String) { set(.integer(PropertyListInteger(Int64(value))), forKey: key) }

    /// Sets a double.
    public func set(_ value: Double, forKey key: String) { set(.real(value), forKey: key) }

    /// Sets a float (stored as a real, as `NSNumber` stores it).
    public func set(_ value: Float, forKey key: String) { set(.real(Double(value)), forKey: key) }

    /// Sets a string.
    public func set(_ value: String, forKey key: String) { set(.string(value), forKey: key) }

    /// Sets data.
    public func set(_ value: Data, forKey key: String) { set(.data(value), forKey: key) }

    /// Sets a date.
    public func set(_ value: Date, forKey key: String) { set(.date(value), forKey: key) }

    /// Sets an array.
    public func set(_ value: [PropertyListValue], forKey key: String) { set(.array(value), forKey: key) }

    /// Sets an array of strings.
    public func set(_ value: [String], forKey key: String) { set(.array(value.map(PropertyListValue.string)), forKey: key) }

    /// Sets a dictionary.
    public func set(_ value: [String: PropertyListValue], forKey key: String) {
        set(.dictionary(.init(uniqueKeysWithValues: value.sorted { $0.key < $1.key })), forKey: key)
    }

    /// Sets a URL as Foundation's `set(_:forKey:)` does: a file URL as its
    /// path, abbreviated with `~` inside the home directory; any other URL
    /// as an archived `NSURL`.
    public func set(_ value: URL, forKey key: String) {
        if value.isFileURL {
            set(.string(URLValue.abbreviatingHome(value.standardizedFileURL.path, home: homeDirectory)), forKey: key)
        } else if let archive = try? KeyedArchiver.archivedData(withRootObject: value) {
            set(.data(archive), forKey: key)
        } else {
            set(.string(value.absoluteString), forKey: key)
        }
    }

    /// Stores any `Encodable` value as the property list it encodes to.
    ///
    /// - Throws: ``PreferencesError`` `.invalidValue` when it does not encode.
    public func set<Value: Encodable>(encoding value: Value, forKey key: String) throws {
        do {
            set(try PropertyListValueEncoder().encode(value), forKey: key)
        } catch {
            throw PreferencesError(.invalidValue, path: key, "cannot encode \(Value.self)").caused(by: error)
        }
    }

    /// Decodes the value for `key` as `type`; `nil` when the key is missing.
    ///
    /// - Throws: ``PreferencesError`` `.invalidValue` when the stored value
    ///   does not decode as `type` (for example after a schema change).
    public func decode<Value: Decodable>(_ type: Value.Type, forKey key: String) throws -> Value? {
        guard let stored = object(forKey: key) else { return nil }
        do {
            return try PropertyListValueDecoder().decode(type, from: stored)
        } catch {
            throw PreferencesError(.invalidValue, path: key, "cannot decode \(Value.self)").caused(by: error)
        }
    }
}

extension Preferences {
    /// The preferences of an app group (`UserDefaults(suiteName:)`): the
    /// domain `suiteName` in the shared group container at `groupContainer`,
    /// stored at `Library/Preferences/<suiteName>.plist` there, so the app
    /// and its extensions read and write one domain.
    ///
    /// The search list is the argument domain, the suite, the global domain
    /// (from `globalDomainFile`, if given), then the registration domain.
    ///
    /// - Throws: ``PreferencesError`` `.invalidDomainName` for an empty name,
    ///   one with `/`, `NSGlobalDomain`, or `applicationIdentifier` (the
    ///   app's own domain, which Foundation also refuses as a suite).
    public convenience init(suiteName: String, groupContainer: URL, applicationIdentifier: String? = nil,
                            globalDomainFile: URL? = nil, configuration: Configuration = .init()) throws {
        try Self.checkSuiteName(suiteName, applicationIdentifier: applicationIdentifier)
        let file = groupContainer.appendingPathComponent(ContainerDirectory.preferences.relativePath, isDirectory: true)
            .appendingPathComponent(suiteName + ".plist")
        try self.init(domainFile: file, globalDomainFile: globalDomainFile, homeDirectory: groupContainer,
                      configuration: configuration)
    }

    /// Refuses names that cannot be a suite: empty, a path, the global
    /// domain, or the app's own domain (Foundation refuses that one too).
    static func checkSuiteName(_ suiteName: String, applicationIdentifier: String?) throws {
        guard !suiteName.isEmpty, !suiteName.contains("/"), !suiteName.hasPrefix("."),
              suiteName != globalDomainName, suiteName != applicationIdentifier else {
            throw PreferencesError(.invalidDomainName, path: suiteName,
                                   "'\(suiteName)' cannot name a suite (empty, a path, the global domain or the app's own domain)")
        }
    }
}

extension Preferences {
    /// Writes this process's pending changes now and re-reads the domains
    /// if another process changed them, as `UserDefaults.synchronize()`.
    ///
    /// The write is ``PreferencesDurability/atomic``: visible to other
    /// processes and safe from a crash of this one when the call returns.
    public func synchronize() throws {
        // A flush re-reads the file under the lock, so it has already
        // picked up other processes' changes.
        if try !primary.flush(durability: .atomic) { try primary.reloadIfChanged() }
        try global?.reloadIfChanged()
    }

    /// Writes this process's pending changes now, if there are any.
    public func flush(durability: PreferencesDurability = .atomic) throws {
        try primary.flush(durability: durability)
    }

    /// The app moved to the background: pending changes are written and
    /// forced to disk, since a suspended app may be killed without notice.
    public func applicationDidEnterBackground() throws {
        try primary.flush(durability: configuration.lifecycleDurability)
    }

    /// The app is about to terminate: pending changes are written and
    /// forced to disk.
    public func applicationWillTerminate() throws {
        try primary.flush(durability: configuration.lifecycleDurability)
    }
}
