import FileSystem

/// Large XML documents whose root is a dictionary are read on two threads.
///
/// The reader guesses a cut: the first line near the middle of the text that
/// is one tab followed by `<key>`, where CF and plistlib start a root entry.
/// The back half is parsed from the cut to the end of the document while the
/// front half is parsed from the start; the front half confirms the guess by
/// arriving, between two root entries, exactly at the cut. A guess inside a
/// comment, CDATA or a nested value is found out that way, and any failure
/// of either half (including a broken document) reads the document again on
/// one thread, so values and errors (with their line and column) are the
/// one-thread reader's.
extension XMLPropertyListReader {
    /// Documents shorter than this (in UTF-8) are read on one thread.
    static let parallelByteThreshold = 1 << 20

    /// Parses a whole document, on two threads when it is at least
    /// `parallelThreshold` bytes long and its root is a dictionary.
    func parse(_ utf8: UnsafeRawBufferPointer, parallelThreshold: Int = Self.parallelByteThreshold) throws -> PropertyListValue {
        if utf8.count >= parallelThreshold, let value = try? XMLPlistParser.parseInHalves(utf8, limits: limits) {
            return value
        }
        var parser = XMLPlistParser(text: utf8, limits: limits)
        return try parser.parseDocument()
    }
}

extension XMLPlistParser {
    /// How far past the middle the cut is looked for before giving up.
    static let cutSearchLength = 1 << 20

    /// The document's value read in two halves, `nil` when its root is not a
    /// non-empty `<dict>` inside `<plist>` or no cut is found; throws when
    /// either half fails or the cut was not between root entries.
    static func parseInHalves(_ text: UnsafeRawBufferPointer, limits: PropertyListLimits) throws -> PropertyListValue? {
        guard let halves = try readInHalves(text, limits: limits, { parser, rootStart, cut in
            var parts = XMLDictionaryParts()
            let stoppedAtCut = try parser.parseEntries(into: &parts, openedAt: rootStart, depth: 0, cut: cut)
            return (parts, stoppedAtCut)
        }) else { return nil }
        var (front, whole) = (halves.0, halves.1)
        whole.append(contentsOf: halves.2)
        return front.finishDictionary(&whole)
    }

    /// Reads the root dictionary's entries in two halves with `entries`
    /// (given the parser, where the root opened, and the cut to stop at, or
    /// nil to read through the end; it says whether it stopped at the cut),
    /// as ``parseInHalves(_:limits:)`` describes; the validator shares it.
    /// Returns the front half's parser and both halves' results.
    static func readInHalves<Part>(_ text: UnsafeRawBufferPointer, limits: PropertyListLimits,
                                   _ entries: (inout XMLPlistParser, _ rootStart: Int, _ cut: Int?) throws -> (Part, Bool))
        throws -> (XMLPlistParser, Part, Part)? {
        var front = XMLPlistParser(text: text, limits: limits)
        let (plistStart, plistTag) = try front.readFirstTag()
        guard plistTag.kind == .plist, !plistTag.isEmpty else { return nil }
        try front.skipMisc()
        guard front.current == UInt8(ascii: "<"), front.byte(at: front.position + 1) != UInt8(ascii: "/") else { return nil }
        let rootStart = front.position
        let rootTag = try front.readStartTag()
        guard rootTag.kind == .dict, !rootTag.isEmpty else { return nil }
        try front.countObject(at: rootStart)
        try front.checkDepth(0, at: rootStart)
        guard let cut = rootEntryStart(in: text, after: front.position + (text.count - front.position) / 2) else { return nil }

        var back = XMLPlistParser(text: text, limits: limits)
        back.position = cut
        let (frontHalf, backHalf) = TwoThreads.run({ () throws -> Part in
            let (part, stoppedAtCut) = try entries(&front, rootStart, cut)
            guard stoppedAtCut else { throw front.failure(.syntax, "the root dictionary ends before byte \(cut)") }
            return part
        }, { () throws -> Part in
            let (part, _) = try entries(&back, rootStart, nil)
            try back.finishDocument(plistOpenedAt: plistStart)
            return part
        })
        let frontPart = try frontHalf.get()
        let backPart = try backHalf.get()
        // Each half counted its own objects; the one-thread reader names where the limit is passed.
        guard front.objectCount + back.objectCount <= limits.maximumObjectCount else { return nil }
        return (front, frontPart, backPart)
    }

    /// The offset of the `<` of the first `<key>` after `start` that begins a
    /// line after exactly one tab, within ``cutSearchLength`` bytes.
    static func rootEntryStart(in text: UnsafeRawBufferPointer, after start: Int) -> Int? {
        let pattern: StaticString = "\n\t<key>"
        let length = pattern.utf8CodeUnitCount
        guard let base = text.baseAddress else { return nil }
        let limit = min(text.count - length, start + cutSearchLength)
        var index = start
        while index <= limit {
            if text[index] == 0x0A, RawMemory.bytesEqual(base + index, pattern.utf8Start, count: length) {
                return index + 2
            }
            index += 1
        }
        return nil
    }
}
