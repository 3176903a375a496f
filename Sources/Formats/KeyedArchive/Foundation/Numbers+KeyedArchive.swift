import PropertyList

/// Numbers are stored inline in `$objects` (`NSNumber`): integers as
/// integers, `Bool` as a Boolean, `Double` as a real, so `true`, `1` and
/// `1.0` stay three different values. `NSNumber` objects
/// (`NS.number`, `NS.intval`, `NS.dblval`, `NS.boolval`) read too.
enum ArchivedNumber {
    static let classNames = ["NSNumber"]

    static func unarchive<T>(_ reference: PropertyListUID, with unarchiver: KeyedUnarchiver,
                             expected: String, _ convert: (PropertyListValue) -> T?) throws -> T {
        let value = try unarchiver.decodeInlineOrObject(at: reference, classNames: classNames, expected: expected,
                                                        inline: { $0 }) { coder, _ in
            for key in [FoundationKeys.number, FoundationKeys.intValue, FoundationKeys.doubleValue, FoundationKeys.boolValue] {
                if let stored = coder.fields[key] { return stored }
            }
            throw KeyedArchiveError(.keyNotFound, objectIndex: coder.currentIndex, key: FoundationKeys.number, "the NSNumber has no value")
        }
        guard let result = convert(value) else {
            throw KeyedArchiveError(.typeMismatch, objectIndex: Int(reference.value), "expected \(expected), found \(KeyedArchiveTable.describe(value))")
        }
        return result
    }

    static func integer<T: FixedWidthInteger>(_ value: PropertyListValue) -> T? {
        switch value {
        case .integer(let integer): integer.exactly(as: T.self)
        case .bool(let flag): flag ? 1 : 0
        default: nil
        }
    }

    static func real(_ value: PropertyListValue) -> Double? {
        switch value {
        case .real, .float: value.realValue
        case .integer(let integer): integer.int64Value.map(Double.init) ?? Double(integer.bitPattern)
        default: nil
        }
    }

    static func bool(_ value: PropertyListValue) -> Bool? {
        switch value {
        case .bool(let flag): flag
        case .integer(let integer): integer.bitPattern != 0
        default: nil
        }
    }
}

extension Int: KeyedArchiveRepresentable, InlineArchivable {
    /// `NSNumber`.
    public static var keyedArchiveClassNames: [String] { ArchivedNumber.classNames }
    /// Stores the number inline in `$objects`.
    public func archive(with archiver: KeyedArchiver) throws -> PropertyListUID {
        archiver.encodeInlineObject(.integer(PropertyListInteger(Int64(self))))
    }
    /// Reads an inline integer or an `NSNumber` that fits.
    public static func unarchive(_ reference: PropertyListUID, with unarchiver: KeyedUnarchiver) throws -> Int {
        try ArchivedNumber.unarchive(reference, with: unarchiver, expected: "an integer", ArchivedNumber.integer)
    }
    static func fromInline(_ value: PropertyListValue) -> Int? { ArchivedNumber.integer(value) }
}

extension Int64: KeyedArchiveRepresentable, InlineArchivable {
    /// `NSNumber`.
    public static var keyedArchiveClassNames: [String] { ArchivedNumber.classNames }
    /// Stores the number inline in `$objects`.
    public func archive(with archiver: KeyedArchiver) throws -> PropertyListUID {
        archiver.encodeInlineObject(.integer(PropertyListInteger(self)))
    }
    /// Reads an inline integer or an `NSNumber` that fits.
    public static func unarchive(_ reference: PropertyListUID, with unarchiver: KeyedUnarchiver) throws -> Int64 {
        try ArchivedNumber.unarchive(reference, with: unarchiver, expected: "an integer", ArchivedNumber.integer)
    }
    static func fromInline(_ value: PropertyListValue) -> Int64? { ArchivedNumber.integer(value) }
}

extension UInt64: KeyedArchiveRepresentable, InlineArchivable {
    /// `NSNumber`.
    public static var keyedArchiveClassNames: [String] { ArchivedNumber.classNames }
    /// Stores the number inline in `$objects` (values above `Int64.max` as Apple's 16-byte integers).
    public func archive(with archiver: KeyedArchiver) throws -> PropertyListUID {
        archiver.encodeInlineObject(.integer(PropertyListInteger(self)))
    }
    /// Reads an inline integer or an `NSNumber` that fits.
    public static func unarchive(_ reference: PropertyListUID, with unarchiver: KeyedUnarchiver) throws -> UInt64 {
        try ArchivedNumber.unarchive(reference, with: unarchiver, expected: "an unsigned integer", ArchivedNumber.integer)
    }
    static func fromInline(_ value: PropertyListValue) -> UInt64? { ArchivedNumber.integer(value) }
}

extension Double: KeyedArchiveRepresentable, InlineArchivable {
    /// `NSNumber`.
    public static var keyedArchiveClassNames: [String] { ArchivedNumber.classNames }
    /// Stores the number inline in `$objects` as a real.
    public func archive(with archiver: KeyedArchiver) throws -> PropertyListUID {
        archiver.encodeInlineObject(.real(self))
    }
    /// Reads an inline real or integer, or an `NSNumber`.
    public static func unarchive(_ reference: PropertyListUID, with unarchiver: KeyedUnarchiver) throws -> Double {
        try ArchivedNumber.unarchive(reference, with: unarchiver, expected: "a real", ArchivedNumber.real)
    }
    static func fromInline(_ value: PropertyListValue) -> Double? { ArchivedNumber.real(value) }
}

extension Bool: KeyedArchiveRepresentable, InlineArchivable {
    /// `NSNumber`.
    public static var keyedArchiveClassNames: [String] { ArchivedNumber.classNames }
    /// Stores the flag inline in `$objects` as a Boolean.
    public func archive(with archiver: KeyedArchiver) throws -> PropertyListUID {
        archiver.encodeInlineObject(.bool(self))
    }
    /// Reads an inline Boolean (or integer), or an `NSNumber`.
    public static func unarchive(_ reference: PropertyListUID, with unarchiver: KeyedUnarchiver) throws -> Bool {
        try ArchivedNumber.unarchive(reference, with: unarchiver, expected: "a Boolean", ArchivedNumber.bool)
    }
    static func fromInline(_ value: PropertyListValue) -> Bool? { ArchivedNumber.bool(value) }
}
