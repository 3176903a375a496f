#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import SystemPackage

extension FileDescriptor {
    /// Changes the owner of `name` in this directory (`fchownat`), never
    /// following a link: a link gets the new owner itself, its target none.
    public func setOwner(of name: String, user: UInt32, group: UInt32) throws(FileSystemError) {
        let result = retryingOnInterrupt { fchownat(rawValue, name, uid_t(user), gid_t(group), AT_SYMLINK_NOFOLLOW) }
        guard result == 0 else { throw FileSystemError(currentErrno, "change the owner of", path: name) }
    }

    /// Hands this directory and everything beneath it to `user`:`group`,
    /// never following a link (``walkTree(_:)``).
    ///
    /// A file with more than one hard link that `user` does not already own
    /// is left alone: the other link may be outside the tree, and handing
    /// it over would give the user a file it was never given. Returns how
    /// many entries changed owner.
    @discardableResult
    public func setOwnerOfTree(user: UInt32, group: UInt32) throws(FileSystemError) -> Int {
        var changed = 0
        let root = try status()
        if root.userID != user || root.groupID != group {
            try setOwner(user: user, group: group)
            changed += 1
        }
        try walkTree { entry, parent throws(FileSystemError) in
            let info = entry.status
            guard info.userID != user || info.groupID != group else { return .descend }
            if !info.isDirectory && info.linkCount > 1 && info.userID != user { return .skip }
            do throws(FileSystemError) { try parent.setOwner(of: entry.name, user: user, group: group) } catch {
                if error.isNotFound { return .skip }  // removed meanwhile
                throw error.with(path: entry.path)
            }
            changed += 1
            return .descend
        }
        return changed
    }
}
