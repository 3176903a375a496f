/// The result of checking a bundle against its seal.
public enum BundleSealStatus: Sendable, Hashable {
    /// Every file matches the seal.
    case valid
    /// The bundle has no `_CodeSignature/CodeResources`.
    case unsealed
    /// Files were changed, added or removed: their bundle-relative paths,
    /// sorted. ``BundleSealReport`` tells which is which.
    case modified([String])
}

/// The differences between a bundle and its seal.
public struct BundleSealReport: Sendable, Hashable {
    /// Files whose content (or link target) differs from the seal.
    public var modified: [String]
    /// Files present but not in the seal.
    public var added: [String]
    /// Files in the seal but missing.
    public var removed: [String]

    /// Whether the bundle matches its seal.
    public var isValid: Bool { modified.isEmpty && added.isEmpty && removed.isEmpty }

    /// All changed paths, sorted.
    public var allPaths: [String] { (modified + added + removed).sorted() }
}
