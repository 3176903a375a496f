/// Values the command keeps until the process exits, instead of freeing
/// them when it is done with them.
///
/// A decoded 17 MB property list is a tree of about a million values:
/// freeing it one node at a time costs a command-line run more than reading
/// it did, and the process is about to exit, which frees everything at
/// once. Only the last value is kept, so a run over many files still frees
/// each earlier one.
enum ProcessLifetime {
    nonisolated(unsafe) private static var kept: Any?

    /// Keeps `value` alive until the process exits (dropping the value
    /// kept before it).
    static func keep(_ value: Any) { kept = value }
}
