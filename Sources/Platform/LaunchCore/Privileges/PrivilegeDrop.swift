/// Leaves every privilege before the app runs: Landlock confines paths, but
/// not `chmod`, `chown`, `utimes` or `setxattr`, which a root process may
/// make anywhere. So the trampoline, started as root, becomes the
/// unprivileged ``AppUser`` and keeps no capability.
///
/// The order matters: `no_new_privs` first (no later exec can gain
/// anything), the capability bounding set and ambient set emptied while
/// `CAP_SETPCAP` is still held, then `setresgid`, `setgroups(0)` (needs
/// `CAP_SETGID`, so before the uid changes) and `setresuid`, which empties
/// the permitted and effective sets; finally `capset` clears what is left
/// (the inheritable set). Then everything is checked with `capget`,
/// `getresuid`/`getresgid`, `getgroups` and `prctl`, and the launch fails
/// (``LaunchErrorCode/privilegeDropFailed``) if any privilege
/// remains or root can be taken back.
///
/// Not started as root, the user is left as it is (an unprivileged caller
/// cannot change it, and needs not); `no_new_privs` is still set and any
/// capability the process holds is cleared.
package enum PrivilegeDrop {
    /// What ``drop(to:)`` did.
    package enum Outcome: Equatable {
        /// The process now runs as the user.
        case dropped(AppUser)
        /// The process was not root; only capabilities were cleared.
        case unprivileged
    }

    package static func drop(to user: AppUser) throws -> Outcome {
        func failed(_ failure: SystemFailure, _ action: String) -> LaunchError {
            LaunchError(.privilegeDropFailed, failure, path: user.description, action)
        }
        do { try Platform.enableNoNewPrivileges() } catch let failure as SystemFailure {
            throw failed(failure, "set no_new_privs")
        }
        guard Platform.effectiveUserID == 0 else {
            do { try Platform.clearCapabilities() } catch let failure as SystemFailure {
                throw failed(failure, "clear the capabilities")
            }
            try verify(nil)
            return .unprivileged
        }
        guard user.uid != 0, user.gid != 0 else {
            throw LaunchError(.privilegeDropFailed, path: user.description, "an app never runs as root (uid or gid 0)")
        }
        Platform.dropBoundingCapabilities()
        do {
            try Platform.setGroupIDs(user.gid)
            try Platform.clearSupplementaryGroups()
            try Platform.setUserIDs(user.uid)
            try Platform.clearCapabilities()
        } catch let failure as SystemFailure {
            throw failed(failure, "become the app's user")
        }
        try verify(user)
        return .dropped(user)
    }

    /// Checks that no privilege remains: the ids are the user's (when one
    /// was taken on), no supplementary group, no capability in any set,
    /// `no_new_privs` on, and root cannot be taken back.
    private static func verify(_ user: AppUser?) throws {
        func remains(_ what: String) -> LaunchError {
            LaunchError(.privilegeDropFailed, path: user?.description ?? "", "a privilege remains after dropping: \(what)")
        }
        if let user {
            let ids = Platform.userIDs, groups = Platform.groupIDs
            guard ids == (user.uid, user.uid, user.uid) else { throw remains("user ids \(ids)") }
            guard groups == (user.gid, user.gid, user.gid) else { throw remains("group ids \(groups)") }
            guard Platform.supplementaryGroupCount == 0 else { throw remains("supplementary groups") }
            guard !Platform.canRegainRoot() else { throw remains("root can be taken back") }
        }
        guard let sets = Platform.capabilitySets() else { throw remains("capabilities cannot be read") }
        guard sets.effective == 0, sets.permitted == 0, sets.inheritable == 0 else {
            throw remains("capabilities \(sets)")
        }
        guard !Platform.hasAmbientCapabilities() else { throw remains("ambient capabilities") }
        guard Platform.noNewPrivileges else { throw remains("no_new_privs is off") }
    }
}
