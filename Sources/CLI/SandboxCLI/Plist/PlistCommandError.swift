/// A failure of `sandbox plist` on one file that is not an I/O or a
/// property-list format error: a key path that leads nowhere, a value of the
/// wrong type. It is reported as `path: message` and the command goes on.
struct PlistCommandError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The message, a lower-case phrase without a final period.
    var description: String

    init(_ description: String) { self.description = description }

    /// A key path that does not lead to a value.
    static func noValue(at path: PlistKeyPath) -> Self {
        Self("no value at key path \(path)")
    }
}
