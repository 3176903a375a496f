import MobileBackup

/// The layouts iOS's full restore uses, spelled out for the format's own
/// tests (MobileBackup knows no container; Device derives these from
/// Container's rules table, and DeviceTests check the two agree).
extension RestoreLayout {
    /// Whether `path` is `directory` or below it.
    static func isUnder(_ path: String, _ directory: String) -> Bool {
        path == directory || path.hasPrefix(directory + "/")
    }

    /// An app's data container: Documents and Library but Caches come back;
    /// Documents, Library and tmp are replaced.
    static let testApp = RestoreLayout(
        restores: { path in
            path.isEmpty || isUnder(path, "Documents") || (isUnder(path, "Library") && !isUnder(path, "Library/Caches"))
        },
        replaces: { ["Documents", "Library", "tmp"].contains($0) },
        directories: ["Documents", "Library", "Library/Preferences", "Library/Caches", "Library/Application Support", "tmp"],
        stagingDirectory: "tmp")

    /// A group container: everything but Caches, tmp and the container
    /// manager's files at the top.
    static let testGroup = RestoreLayout(
        restores: { path in
            !isUnder(path, "Library/Caches") && !isUnder(path, "tmp") && !(path.hasPrefix(".com.apple.") && !path.contains("/"))
        },
        replaces: { !$0.hasPrefix(".com.apple.") },
        directories: ["Library", "Library/Preferences", "Library/Caches"],
        stagingDirectory: nil)
}
