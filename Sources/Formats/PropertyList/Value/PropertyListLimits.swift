/// Limits every reader enforces, so hostile input is refused quickly
/// instead of exhausting the stack, memory or time; the binary and XML
/// writers take them too (all but the input size).
public struct PropertyListLimits: Hashable, Sendable {
    /// The deepest nesting of arrays and dictionaries allowed. CF uses 512 on
    /// macOS and Linux, 128 on iOS.
    public var maximumDepth: Int
    /// The most objects a file may declare (binary) or contain (text).
    public var maximumObjectCount: Int
    /// The largest input, in bytes.
    public var maximumInputSize: Int
    /// The largest output a writer produces, in bytes. A few hundred bytes
    /// of shared sub-trees can stand for gigabytes once written out in a
    /// format that cannot share (XML, JSON, OpenStep, or binary containers),
    /// so every writer measures the least its output can be before it
    /// allocates anything, and refuses a value over this limit.
    public var maximumOutputSize: Int

    /// Creates limits.
    public init(maximumDepth: Int = 512, maximumObjectCount: Int = 1 << 26, maximumInputSize: Int = 1 << 31,
                maximumOutputSize: Int = 1 << 28) {
        self.maximumDepth = maximumDepth
        self.maximumObjectCount = maximumObjectCount
        self.maximumInputSize = maximumInputSize
        self.maximumOutputSize = maximumOutputSize
    }

    /// macOS and Linux's limits: depth 512, 64 Mi objects, 2 GiB in, and
    /// (ours) 256 MiB out.
    public static let `default` = PropertyListLimits()
    /// iOS's depth limit of 128.
    public static let iOS = PropertyListLimits(maximumDepth: 128)

    /// Throws ``PropertyListError/Code/sizeLimitExceeded`` if an input of
    /// `count` bytes is over ``maximumInputSize``.
    public func checkInputSize(_ count: Int, format: PropertyListFormat?) throws {
        guard count <= maximumInputSize else {
            throw PropertyListError(.sizeLimitExceeded, format: format, location: .byteOffset(0),
                                    "input of \(count) bytes is over the limit of \(maximumInputSize)")
        }
    }
}
