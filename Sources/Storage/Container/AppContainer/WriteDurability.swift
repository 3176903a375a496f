import FileSystem

/// How much of an atomic write must survive before the call returns: the
/// file-system module's ``Durability``, under the name this module's API
/// has always used.
///
/// Every level replaces the file with a `rename` (or a name swap) of a
/// complete temporary file, so readers and a process killed at any moment
/// see the old content or the new one, never a torn file. They differ in
/// what a power loss or a kernel crash can undo:
///
/// - ``Durability/full`` (the default): the file is flushed before the
///   rename and the directory after it, so the new content survives a power
///   loss. What iOS needs when an app may be suspended or killed next.
/// - ``Durability/fileOnly``: the file is flushed, the rename is not (as
///   Foundation's `Data.write(options: .atomic)`): a power loss may bring
///   back the old file, never a torn or empty one.
/// - ``Durability/none`` (``Durability/processCrashSafe``): nothing is
///   flushed. The preferences daemon writes ordinary changes this way. On
///   Linux the new file takes the name by `renameat2(RENAME_EXCHANGE)` and
///   the old one is unlinked, which skips the writeback ext4 starts on a
///   replacing rename; a process killed between the two calls leaves the
///   old content in one `.sb-*.tmp` file.
public typealias WriteDurability = Durability

extension Durability {
    /// The container API's earlier name for ``Durability/none``: atomic for
    /// readers and for a crash of the process, not for a power loss.
    public static var processCrashSafe: Durability { .none }
}
