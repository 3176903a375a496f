/// Builds a Landlock ruleset from path rules and enforces it on the calling
/// process, which then passes it on over `execve` and `fork` (a Landlock
/// domain can never be left, only narrowed).
package enum LandlockRuleset {
    /// Confines this process to `rules`, as `mode` says; returns what was
    /// done. Rights the kernel's ABI does not know are dropped from the rules
    /// (they cannot be handled, so they are not restricted either).
    package static func confineSelf(to rules: [PathRule], mode: ConfinementMode) throws -> TrampolineStatus {
        if mode == .disabled {
            return .unconfined(abi: 0, reason: "confinement was turned off for this launch")
        }
        let abi: Int
        switch Platform.landlockABI() {
        case .success(let version):
            abi = version
        case .failure:
            let reason = Landlock.unavailableReason ?? "Landlock is unavailable"
            if mode == .required { throw LaunchError(.landlockUnavailable, reason) }
            return .unconfined(abi: 0, reason: reason)
        }
        let handled = LandlockAccess.handled(byABI: abi)
        let scoped = LandlockScope.handled(byABI: abi)
        // The attribute struct grew with the ABI: handled_access_net (ABI 4),
        // then scoped (ABI 6). Network rights stay unhandled: apps may use
        // the network, as on iOS.
        let size = abi >= 6 ? 24 : abi >= 4 ? 16 : 8
        let ruleset: Platform.Descriptor
        do {
            ruleset = try Platform.landlockCreateRuleset(fileSystem: handled.rawValue, scoped: scoped.rawValue,
                                                         attributeSize: size)
        } catch let failure as SystemFailure {
            throw LaunchError(.confinementFailed, failure, "create the Landlock ruleset")
        }
        defer { Platform.closeDescriptor(ruleset) }
        for rule in rules {
            try add(rule, handled: handled, to: ruleset)
        }
        do {
            try Platform.landlockRestrictSelf(ruleset)
        } catch let failure as SystemFailure {
            throw LaunchError(.confinementFailed, failure, "enforce the Landlock ruleset")
        }
        return .confined(abi: abi)
    }

    private static func add(_ rule: PathRule, handled: LandlockAccess, to ruleset: Platform.Descriptor) throws {
        let location: (fd: Platform.Descriptor, isDirectory: Bool)
        do {
            location = try open(rule)
        } catch let failure as SystemFailure {
            if failure.errno == Platform.linkLoop || failure.errno == Platform.crossDevice {
                throw LaunchError(.linkRefused, failure, path: rule.path,
                                  "use a confinement rule's path (it goes through a symbolic link, which is never followed)")
            }
            if rule.optional { return }
            let code: LaunchError.Code = failure.errno == Platform.noSuchFile ? .pathNotFound : .confinementFailed
            throw LaunchError(code, failure, path: rule.path, "open a confinement rule's path")
        }
        defer { Platform.closeDescriptor(location.fd) }
        var access = rule.access.intersection(handled)
        // The kernel refuses directory rights on a file rule.
        if !location.isDirectory { access.formIntersection(.fileRights) }
        guard !access.isEmpty else { return }
        do {
            try Platform.landlockAllow(access.rawValue, beneath: location.fd, in: ruleset)
        } catch let failure as SystemFailure {
            throw LaunchError(.confinementFailed, failure, path: rule.path, "add a Landlock rule")
        }
    }

    /// The rule's location: followed through links, or (with
    /// ``PathRule/beneath``) its anchor followed and the rest opened with
    /// no link followed.
    private static func open(_ rule: PathRule) throws -> (fd: Platform.Descriptor, isDirectory: Bool) {
        guard let anchor = rule.beneath else { return try Platform.openLocation(rule.path) }
        guard let relative = rule.pathBeneath else { throw SystemFailure(errno: Platform.crossDevice) }
        let directory = try Platform.openLocation(anchor)
        guard !relative.isEmpty else { return directory }
        defer { Platform.closeDescriptor(directory.fd) }
        return try Platform.openLocation(relative, beneath: directory.fd)
    }
}
