import Foundation

extension XMLPropertyListReader {
    /// Checks that `data` is an XML property list this reader decodes,
    /// without building its value: ``read(_:)`` succeeds exactly when this
    /// does, and fails with the same error at the same line and column.
    ///
    /// The same scanner walks the same elements in the same order; scalars
    /// are parsed (their ranges are part of the format) but no string, data
    /// or container is made, so a large document costs one pass over its
    /// bytes, on two threads for a document of a megabyte or more whose root
    /// is a dictionary, as the decoder does. Input in UTF-16 or UTF-32 is
    /// transcoded first, as for reading.
    /// `sandbox plist -lint` uses it.
    public func validate(_ data: Data) throws {
        try data.withUnsafeBytes { try validate(bytes: $0) }
    }

    /// Checks raw bytes; see ``validate(_:)``.
    public func validate(bytes: UnsafeRawBufferPointer) throws {
        try limits.checkInputSize(bytes.count, format: .xml)
        try TextDecoding.withUTF8(bytes, format: .xml) { utf8 in
            // Large documents as the decoder reads them, on two threads;
            // any failure is checked again on one, for its verdict and error.
            if utf8.count >= Self.parallelByteThreshold,
               (try? XMLPlistParser.readInHalves(utf8, limits: limits, { parser, rootStart, cut in
                   ((), try parser.validateEntries(openedAt: rootStart, depth: 0, cut: cut))
               })) != nil {
                return
            }
            var parser = XMLPlistParser(text: utf8, limits: limits)
            try parser.validateDocument()
        }
    }
}

extension XMLPlistParser {
    mutating func validateDocument() throws {
        try readDocument { parser, first in
            guard let (start, tag) = first else { return try parser.validateValue(depth: 0) }
            try parser.validateValue(tag, openedAt: start, depth: 0)
        }
    }

    mutating func validateValue(depth: Int) throws {
        let (start, tag) = try readValueTag()
        try validateValue(tag, openedAt: start, depth: depth)
    }

    /// ``parseValue(_:openedAt:depth:)`` without the value: each case runs
    /// the decoder's reading of the element and drops what it made.
    mutating func validateValue(_ tag: StartTag, openedAt start: Int, depth: Int) throws {
        try countObject(at: start)
        switch tag.kind {
        case .string:
            if !tag.isEmpty { try checkText(closing: .string, openedAt: start) }
        case .integer:
            _ = try readInteger(tag, openedAt: start)
        case .real:
            _ = try readReal(tag, openedAt: start)
        case .date:
            _ = try readDate(tag, openedAt: start)
        case .true, .false:
            _ = try readBool(tag, openedAt: start)
        case .data:
            try readData(tag, openedAt: start, empty: (), Base64.validate)
        case .array:
            try checkDepth(depth, at: start)
            if tag.isEmpty { return }
            try readElements(openedAt: start) { try $0.validateValue(depth: depth + 1) }
        case .dict:
            try checkDepth(depth, at: start)
            if tag.isEmpty { return }
            // Keys are checked as text: the decoder's `readKey` finds the same
            // errors, its key cache only saves making the same string again.
            // A repeated key is allowed (the last value wins), and
            // `{CF$UID = n}` is a UID or a dictionary, never an error.
            _ = try validateEntries(openedAt: start, depth: depth)
        case .key, .plist, .unknown:
            throw misplaced(tag, openedAt: start)
        }
    }

    /// ``parseEntries(into:openedAt:depth:cut:)`` without the entries.
    mutating func validateEntries(openedAt start: Int, depth: Int, cut: Int? = nil) throws -> Bool {
        try readEntries(openedAt: start, cut: cut, key: { parser, keyTag, keyStart in
            if !keyTag.isEmpty { try parser.checkText(closing: .key, openedAt: keyStart) }
        }, value: { parser, _ in
            try parser.validateValue(depth: depth + 1)
        })
    }

    /// Reads an element's text as the decoder does, checking that it is
    /// UTF-8 without making a string of it.
    mutating func checkText(closing kind: XMLPlistTag, openedAt start: Int) throws {
        try readText(closing: kind, openedAt: start) { TextDecoding.isValidUTF8($0) ? () : nil }
    }
}
