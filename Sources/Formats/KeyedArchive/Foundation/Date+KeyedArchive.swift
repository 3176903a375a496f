import Foundation
import PropertyList

/// Dates are `NSDate` objects: `{NS.time: seconds since 2001-01-01}`.
extension Date: KeyedArchiveRepresentable {
    /// `NSDate`.
    public static var keyedArchiveClassNames: [String] { ["NSDate"] }

    /// Stores an `NSDate` object.
    public func archive(with archiver: KeyedArchiver) throws -> PropertyListUID {
        try archiver.encodeObject(class: .date, identity: nil) { coder in
            coder.encodeDouble(timeIntervalSinceReferenceDate, forKey: FoundationKeys.time)
        }
    }

    /// Reads an `NSDate` object (or a plain date stored inline).
    public static func unarchive(_ reference: PropertyListUID, with unarchiver: KeyedUnarchiver) throws -> Date {
        try unarchiver.decodeInlineOrObject(at: reference, classNames: keyedArchiveClassNames, expected: "a date",
                                            inline: \.dateValue) { coder, _ in
            guard coder.containsValue(forKey: FoundationKeys.time) else {
                throw KeyedArchiveError(.keyNotFound, objectIndex: coder.currentIndex, key: FoundationKeys.time, "the NSDate has no NS.time")
            }
            return Date(timeIntervalSinceReferenceDate: try coder.decodeDouble(forKey: FoundationKeys.time))
        }
    }
}
