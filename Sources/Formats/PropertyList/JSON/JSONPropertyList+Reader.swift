import Foundation

// Placeholder until implemented.
public struct JSONPropertyListReader: Sendable {
    public var limits: PropertyListLimits
    public init(limits: PropertyListLimits = .default) { self.limits = limits }
    public func read(_ data: Data) throws -> PropertyListValue {
        throw PropertyListError(.unrecognizedFormat, format: nil, "not implemented")
    }
}
