import FileSystem
import SystemPackage

extension ConfinedLaunch {
    /// Hands every directory the program may write (a rule with all of
    /// ``LandlockAccess/readWrite``) to ``user``: the program runs as that
    /// user, so it must own its data to write it. A rule with a
    /// ``PathRule/beneath`` directory is opened beneath it with no link
    /// followed, so a link planted in a container hands over nothing; a
    /// missing directory is left to the trampoline to report.
    func handOverDataDirectories() throws {
        guard user.uid != 0, user.gid != 0 else {
            throw LaunchError(.privilegeDropFailed, path: user.description, "an app never runs as root (uid or gid 0)")
        }
        for rule in rules where rule.access.isSuperset(of: .readWrite) {
            do {
                let directory = try open(rule)
                defer { directory.closeQuietly() }
                try directory.setOwnerOfTree(user: user.uid, group: user.gid)
            } catch {
                if error.isNotFound { continue }  // the trampoline reports it (or skips an optional rule)
                if rule.beneath == nil && error.isNotDirectory { continue }  // a file rule: nothing to hand over
                if error.isLoop || error.isEscape || error.isNotDirectory {
                    throw LaunchError(.linkRefused, path: rule.path,
                                      "a data directory is a symbolic link (never followed)")
                }
                throw LaunchError(.ownershipFailed, path: rule.path,
                                  "cannot hand the directory to user \(user)").caused(by: error)
            }
        }
    }

    private func open(_ rule: PathRule) throws(FileSystemError) -> FileDescriptor {
        guard let anchor = rule.beneath, let relative = rule.pathBeneath else {
            return try FileDescriptor.openDirectory(atPath: rule.path, followLinks: rule.beneath == nil)
        }
        let container = try FileDescriptor.openDirectory(atPath: anchor)
        defer { container.closeQuietly() }
        if relative.isEmpty { return try container.openBeneath("", .readOnly, options: .directory) }
        return try container.openBeneath(relative, .readOnly, options: [.directory, .noFollow], followFinal: false)
    }
}
