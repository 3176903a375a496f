import Foundation

/// The keychain as one caller sees it: the `SecItem` operations, confined to
/// the caller's access groups and subject to the device's lock state.
///
/// Get one from ``Keychain/client(for:)`` (an app) or
/// ``Keychain/deviceClient`` (a device tool). Every operation is one SQLite
/// transaction: it sees one consistent state and changes all its matches or
/// none.
public struct KeychainClient: Sendable {
    /// The keychain this client reaches.
    public let keychain: Keychain
    let scope: AccessScope

    init(keychain: Keychain, scope: AccessScope) {
        self.keychain = keychain
        self.scope = scope
    }

    /// Adds an item (`SecItemAdd`) and returns its stored attributes.
    ///
    /// Without an access group the item goes to the caller's default group;
    /// without an accessibility it is ``KeychainAccessibility/whenUnlocked``.
    ///
    /// - Throws: ``KeychainError`` `duplicateItem` if an item with the same
    ///   identity exists in that group; `missingEntitlement` for a group the
    ///   caller lacks; `interactionNotAllowed` if the class cannot be used in
    ///   the lock state; `passcodeNotSet` for a
    ///   `whenPasscodeSetThisDeviceOnly` item without a passcode;
    ///   `noSuchAttribute` for an attribute the class does not have.
    @discardableResult
    public func add(_ itemClass: KeychainItemClass, _ attributes: KeychainAttributes, data: Data) throws -> KeychainItem {
        try performing(.add) {
            try ItemValidation.check(attributes, of: itemClass)
            var resolved = attributes
            resolved.accessGroup = try scope.groupForNewItem(requested: attributes.accessGroup)
            resolved.accessibility = attributes.accessibility ?? .default
            let accessibility = resolved.accessibility ?? .default
            let id = UUID().uuidString
            let now = keychain.configuration.now()
            let item = try StoredItem(
                persistentID: id, itemClass: itemClass, attributes: resolved, creationDate: now, modificationDate: now,
                sealedData: Data()).sealing(data, keys: keychain.store.keys)
            try keychain.store.write(.add) { db in
                let state = try KeychainStore.deviceState(db)
                try LockRules.requireAvailable(accessibility, in: state)
                try KeychainStore.insert(item, db)
            }
            return item.publicItem(returning: .attributes, data: nil)
        }
    }

    /// The matches of `query` (`SecItemCopyMatching`), in the order they were
    /// added: the first only, or all, as `query.limit` says.
    ///
    /// - Throws: ``KeychainError`` `itemNotFound` if nothing matches;
    ///   `interactionNotAllowed` if any match's class cannot be used in the
    ///   lock state (narrow the query by accessibility to read the others);
    ///   `missingEntitlement` for a group the caller lacks.
    public func query(_ query: KeychainQuery) throws -> [KeychainItem] {
        try performing(.query) {
            try ItemValidation.check(query.attributes, of: query.itemClass)
            let filter = ItemFilter(query, groups: try scope.searchGroups(requested: query.attributes.accessGroup))
            let (state, matches) = try keychain.store.read(.query) { db in
                (try KeychainStore.deviceState(db), try filter.fetch(db))
            }
            guard let first = matches.first else { throw KeychainError(.itemNotFound, "no item matches the query") }
            for match in matches { try LockRules.requireAvailable(match.accessibility, in: state) }
            let chosen = query.limit == .one ? [first] : matches
            return try chosen.map { match in
                // Unsealed even when only attributes are asked for: a row
                // relabelled in the database (another app's group) fails
                // here instead of being handed over.
                let data = try ItemSealing.unseal(match.sealedData, match.binding, keys: keychain.store.keys)
                return match.publicItem(returning: query.returning, data: query.returning.contains(.data) ? data : nil)
            }
        }
    }

    /// The first match of `query`, with the parts it asks for.
    public func item(_ query: KeychainQuery) throws -> KeychainItem {
        var first = query
        first.limit = .one
        // `query` throws itemNotFound rather than return nothing.
        guard let item = try self.query(first).first else {
            throw KeychainError(.itemNotFound, operation: .query, "no item matches the query")
        }
        return item
    }

    /// Changes every match of `query` (`SecItemUpdate`) and returns how many.
    /// The modification date becomes now; the creation date stays.
    ///
    /// - Throws: ``KeychainError`` `itemNotFound` if nothing matches;
    ///   `duplicateItem` if a changed item would collide with another (then
    ///   nothing changes); `invalidParameter` for an update that changes
    ///   nothing; and the errors of ``add(_:_:data:)`` for the new values.
    @discardableResult
    public func update(_ query: KeychainQuery, with update: KeychainUpdate) throws -> Int {
        try performing(.update) {
            try ItemValidation.check(query.attributes, of: query.itemClass)
            try ItemValidation.check(update.attributes, of: query.itemClass)
            guard !update.attributes.names.isEmpty || update.data != nil else {
                throw KeychainError(.invalidParameter, "the update changes nothing")
            }
            if let group = update.attributes.accessGroup { try scope.check(group) }
            let filter = ItemFilter(query, groups: try scope.searchGroups(requested: query.attributes.accessGroup))
            let now = keychain.configuration.now()
            let keys = keychain.store.keys
            return try keychain.store.write(.update) { db in
                let state = try KeychainStore.deviceState(db)
                let matches = try filter.fetch(db)
                guard !matches.isEmpty else { throw KeychainError(.itemNotFound, "no item matches the query") }
                if let accessibility = update.attributes.accessibility {
                    try LockRules.requireAvailable(accessibility, in: state)
                }
                for match in matches { try LockRules.requireAvailable(match.accessibility, in: state) }
                for match in matches {
                    var changed = match
                    changed.attributes = match.attributes.merging(update.attributes)
                    changed.modificationDate = now
                    // Always opened (a relabelled row is refused) and sealed
                    // again to the new class, group and accessibility.
                    let old = try ItemSealing.unseal(match.sealedData, match.binding, keys: keys)
                    changed.sealedData = try ItemSealing.seal(update.data ?? old, changed.binding, keys: keys)
                    try KeychainStore.replace(changed, db)
                }
                return matches.count
            }
        }
    }

    /// Deletes every match of `query` (`SecItemDelete`) and returns how many.
    ///
    /// - Throws: ``KeychainError`` `itemNotFound` if nothing matches;
    ///   `interactionNotAllowed` if any match's class cannot be used in the
    ///   lock state (then nothing is deleted).
    @discardableResult
    public func delete(_ query: KeychainQuery) throws -> Int {
        try performing(.delete) {
            try ItemValidation.check(query.attributes, of: query.itemClass)
            let filter = ItemFilter(query, groups: try scope.searchGroups(requested: query.attributes.accessGroup))
            return try keychain.store.write(.delete) { db in
                let state = try KeychainStore.deviceState(db)
                let matches = try filter.fetch(db)
                guard !matches.isEmpty else { throw KeychainError(.itemNotFound, "no item matches the query") }
                for match in matches { try LockRules.requireAvailable(match.accessibility, in: state) }
                try KeychainStore.delete(matches, db)
                return matches.count
            }
        }
    }

    /// Runs `body`, attributing any ``KeychainError`` to `operation`.
    private func performing<T>(_ operation: KeychainError.Operation, _ body: () throws -> T) throws -> T {
        do { return try body() } catch { throw KeychainStore.keychainError(error, during: operation) }
    }
}
