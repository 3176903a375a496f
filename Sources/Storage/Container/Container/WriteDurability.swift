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
    /// power loss shortly after may bring back the old file or leave an
    /// empty one. The preferences daemon writes ordinary changes this way
    /// (Foundation's `Data.write(options: .atomic)` flushes the file but
    /// not the directory). On Linux the new file takes the name by
    /// `renameat2(RENAME_EXCHANGE)` and the old one is unlinked: a plain
    /// rename over a file makes ext4 start writing the new file back inside
    /// the call, the cost this level exists to avoid. A process killed
    /// between the two calls leaves the old content in one `.sb-*.tmp` file.
    case processCrashSafe
}
