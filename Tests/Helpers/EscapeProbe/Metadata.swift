/// Metadata changes outside the container, which Landlock does not govern
/// (`chmod`, `chown`, `utimes`, `setxattr`): only running as an
/// unprivileged user stops them. Each `--protected` path (a device secret,
/// a root-owned file the test made) is attacked; a change that got through
/// is reported, not undone, so the test sees it.
extension AttemptLog {
    mutating func tryMetadataChanges(_ paths: [String]) {
        for (index, path) in paths.enumerated() {
            let suffix = paths.count > 1 ? "-\(index + 1)" : ""
            attempt("chmod-protected" + suffix, expect: .denied, "make \(path) world-writable") {
                Platform.changeMode(path, 0o777)
            }
            attempt("chown-protected" + suffix, expect: .denied, "take ownership of \(path)") {
                Platform.changeOwner(path)
            }
            attempt("utimes-protected" + suffix, expect: .denied, "set the times of \(path)") {
                Platform.setTimes(path)
            }
            attempt("touch-protected" + suffix, expect: .denied, "set the times of \(path) to now") {
                Platform.touch(path)
            }
            let xattr = Platform.setExtendedAttribute(path)
            attempt("setxattr-protected" + suffix, expect: .denied,
                    skipUnless: xattr != Platform.notSupported, "set an extended attribute on \(path)") { xattr }
        }
    }
}
