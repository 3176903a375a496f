import FileSystem

/// Tunables of an ``AppContainer``. The defaults suit apps; tests and
/// benchmarks change them.
public struct ContainerOptions: Sendable, Equatable {
    /// Reads of files up to this many bytes copy them into memory with
    /// `read(2)`; larger files are mapped with `mmap(2)` and unmapped when
    /// the returned `Data` is released. Default 64 KiB (16 pages): below it a
    /// copy is cheaper than setting up and tearing down a mapping.
    public var mappedReadThreshold: Int
    /// When lookups verify the exact spelling of names.
    public var caseCheck: CaseCheck
    /// How paths are resolved beneath the root.
    public var resolution: PathResolution
    /// Where the do-not-back-up flag is kept.
    public var exclusionStorage: ExclusionStorage

    /// Creates options; every parameter has the default apps use.
    public init(mappedReadThreshold: Int = 64 * 1024, caseCheck: CaseCheck = .automatic,
                resolution: PathResolution = .automatic, exclusionStorage: ExclusionStorage = .automatic) {
        self.mappedReadThreshold = mappedReadThreshold
        self.caseCheck = caseCheck
        self.resolution = resolution
        self.exclusionStorage = exclusionStorage
    }

    /// The defaults.
    public static let `default` = ContainerOptions()
}

/// Where the do-not-back-up flag (`isExcludedFromBackup`) is kept.
public enum ExclusionStorage: Sendable, Equatable {
    /// An extended attribute on the item, falling back to the container's
    /// record on file systems without extended attributes.
    case automatic
    /// Only the container-level record file (what hosts without extended
    /// attributes get).
    case record
}
