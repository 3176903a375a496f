import Foundation

// Placeholder until implemented.
public struct XMLPropertyListWriter: Sendable {
    public var maximumDepth: Int
    public init(maximumDepth: Int = PropertyListLimits.default.maximumDepth) { self.maximumDepth = maximumDepth }
    public func write(_ value: PropertyListValue) throws -> Data {
        throw PropertyListError(.unsupportedValue, format: nil, "not implemented")
    }
}
