import Foundation

/// What the four writers have in common: an output limit and `write`, so
/// ``PropertyListValue/encoded(as:options:)`` applies its options to any
/// of them in one place.
protocol PropertyListWriting {
    /// The largest output written; see ``PropertyListLimits/maximumOutputSize``.
    var maximumOutputSize: Int { get set }
    /// Encodes `value` in the writer's format.
    func write(_ value: PropertyListValue) throws -> Data
}

extension PropertyListWriting {
    /// Writes `value` with `maximumOutputSize` taken from `options`.
    func write(_ value: PropertyListValue, options: PropertyListWriteOptions) throws -> Data {
        var writer = self
        writer.maximumOutputSize = options.maximumOutputSize
        return try writer.write(value)
    }
}

/// The binary and XML writers, which count objects as well as nesting and
/// output: their limits are one ``PropertyListLimits`` value, as a reader's
/// are, so they are declared and documented once; the writers' code reads
/// them under these names.
protocol ObjectCountingWriter: PropertyListWriting {
    /// The writer's limits (``PropertyListLimits/maximumInputSize`` unused).
    var limits: PropertyListLimits { get set }
}

extension ObjectCountingWriter {
    /// ``PropertyListLimits/maximumDepth`` of ``limits``.
    var maximumDepth: Int {
        get { limits.maximumDepth }
        set { limits.maximumDepth = newValue }
    }
    /// ``PropertyListLimits/maximumObjectCount`` of ``limits``.
    var maximumObjectCount: Int {
        get { limits.maximumObjectCount }
        set { limits.maximumObjectCount = newValue }
    }
    /// ``PropertyListLimits/maximumOutputSize`` of ``limits``.
    var maximumOutputSize: Int {
        get { limits.maximumOutputSize }
        set { limits.maximumOutputSize = newValue }
    }
}

extension BinaryPropertyListWriter: ObjectCountingWriter {}
extension XMLPropertyListWriter: ObjectCountingWriter {}
extension OpenStepPropertyListWriter: PropertyListWriting {}
extension JSONPropertyListWriter: PropertyListWriting {}
