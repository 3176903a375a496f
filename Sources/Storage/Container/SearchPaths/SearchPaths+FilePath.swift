import SystemPackage

/// The search paths as `FilePath`s (swift-system), for code that works with
/// file descriptors and paths rather than URLs.
extension SearchPaths {
    /// `FileManager.urls(for:in:)` as `FilePath`s, tildes expanded.
    public func filePaths(for directory: SearchPathDirectory, in mask: SearchPathDomainMask) -> [FilePath] {
        directories(directory, mask, expandTilde: true).map { FilePath($0) }
    }

    /// The first path of a directory in a domain, or nil when the domain has none.
    public func filePath(for directory: SearchPathDirectory, in mask: SearchPathDomainMask = .userDomainMask) -> FilePath? {
        filePaths(for: directory, in: mask).first
    }

    /// `NSHomeDirectory()` as a `FilePath`.
    public func homeFilePath() -> FilePath { FilePath(homeDirectory()) }

    /// `NSTemporaryDirectory()` as a `FilePath`.
    public func temporaryFilePath() -> FilePath { FilePath(temporaryDirectory()) }
}

extension AppContainer {
    /// The `FilePath` of a standard directory (see ``url(for:)``).
    public func filePath(for directory: ContainerDirectory) -> FilePath {
        FilePath(url(for: directory).path)
    }
}
