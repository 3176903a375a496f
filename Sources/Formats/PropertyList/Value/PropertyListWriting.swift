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

extension BinaryPropertyListWriter: PropertyListWriting {}
extension XMLPropertyListWriter: PropertyListWriting {}
extension OpenStepPropertyListWriter: PropertyListWriting {}
extension JSONPropertyListWriter: PropertyListWriting {}
