/// How much of an atomic write must survive before the call returns.
///
/// Both levels replace the file with a `rename` of a complete temporary
/// file, so readers and a process killed at any moment see the old content
/// or the new one, never a torn file. They differ in what a power loss or a
/// kernel crash can undo.
public enum WriteDurability: Sendable, Hashable {
    /// The file is flushed (`fsync`) before the rename and the directory
    /// after it: when the call returns, the new content survives a power
    /// loss. This is the default, and what iOS needs when an app may be
    /// suspended or killed next (going to the background, terminating).
    case full
    /// The rename alone, without flushing: the new content is visible to
    /// every process at once and survives a crash of this process, but a
    /// power loss shortly after may bring back the old file (or, on file
    /// systems that do not order data before the rename, a damaged one).
    /// It is what Foundation's `Data.write(options: .atomic)` does, and
    /// what the preferences daemon does for ordinary writes; it costs one
    /// `rename` instead of two `fsync`s.
    case processCrashSafe
}
