/// Which access groups a client may touch.
enum AccessScope: Sendable, Hashable {
    /// An app: only these groups, the first being its default.
    case groups([String])
    /// A device tool: every group, and no default.
    case device

    /// The groups to search for a query that names `requested` (or none).
    /// `nil` means every group. Naming a group outside the scope is
    /// `missingEntitlement`, as is an app with no groups.
    func searchGroups(requested: String?) throws -> [String]? {
        switch self {
        case .device:
            return requested.map { [$0] }
        case .groups(let groups):
            guard !groups.isEmpty else {
                throw KeychainError(.missingEntitlement, "the caller has no keychain access groups")
            }
            guard let requested else { return groups }
            try check(requested)
            return [requested]
        }
    }

    /// The group a new item goes to: `requested`, or the default group.
    func groupForNewItem(requested: String?) throws -> String {
        if let requested {
            try check(requested)
            return requested
        }
        switch self {
        case .device:
            throw KeychainError(.invalidParameter, "a device client must name the access group of a new item")
        case .groups(let groups):
            guard let first = groups.first else {
                throw KeychainError(.missingEntitlement, "the caller has no keychain access groups")
            }
            return first
        }
    }

    /// `missingEntitlement` unless `group` is in scope.
    func check(_ group: String) throws {
        guard case .groups(let groups) = self, !groups.contains(group) else { return }
        throw KeychainError(.missingEntitlement, "the caller is not entitled to access group '\(group)'")
    }
}
