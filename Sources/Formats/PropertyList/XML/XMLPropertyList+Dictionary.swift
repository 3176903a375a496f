import FileSystem
import OrderedCollections

/// The strings of recently read dictionary keys, found again from their bytes.
///
/// Property lists repeat a handful of keys in every dictionary; finding the
/// `String` made last time costs a hash and a byte comparison, where making a
/// new one costs a validation and usually an allocation. Each key also keeps
/// the hash ``DictionaryKeyCheck`` uses, so a dictionary's keys are checked
/// for repeats without hashing `String`s.
struct XMLKeyCache {
    static let slots = 256
    /// Keys longer than this are not cached (their bytes are kept inline).
    static let longestKey = 48

    /// Per slot: the key's byte hash with the low bit set (0 when empty).
    var hashes = [UInt32](repeating: 0, count: slots)
    var lengths = [Int](repeating: 0, count: slots)
    var bytes = [UInt8](repeating: 0, count: slots * longestKey)
    var strings = [String](repeating: "", count: slots)
    var isASCII = [Bool](repeating: false, count: slots)

    /// `hash` with the ASCII marker of ``DictionaryKeyCheck/areUnique(_:asciiHashes:scratch:)``, or 0.
    static func keyHash(_ hash: UInt32, isASCII: Bool) -> UInt32 { isASCII ? hash | 1 : 0 }

    /// The key with these bytes and its key hash, made and remembered if new;
    /// `nil` if the bytes are not UTF-8.
    mutating func key(_ raw: UnsafeRawBufferPointer) -> (String, UInt32)? {
        let hash = DictionaryKeyCheck.hash(raw) | 1
        guard raw.count <= Self.longestKey else {
            guard let string = TextDecoding.string(raw) else { return nil }
            return (string, Self.keyHash(hash, isASCII: BinaryObjectDecoder.isASCII(raw)))
        }
        let slot = Int(hash >> 1) & (Self.slots - 1)
        if hashes[slot] == hash, lengths[slot] == raw.count, matches(raw, slot: slot) {
            return (strings[slot], Self.keyHash(hash, isASCII: isASCII[slot]))
        }
        guard let string = TextDecoding.string(raw) else { return nil }
        let ascii = BinaryObjectDecoder.isASCII(raw)
        hashes[slot] = hash
        lengths[slot] = raw.count
        strings[slot] = string
        isASCII[slot] = ascii
        bytes.withUnsafeMutableBytes { stored in
            UnsafeMutableRawBufferPointer(rebasing: stored[(slot * Self.longestKey)...]).copyMemory(from: raw)
        }
        return (string, Self.keyHash(hash, isASCII: ascii))
    }

    func matches(_ raw: UnsafeRawBufferPointer, slot: Int) -> Bool {
        guard let source = raw.baseAddress else { return true }
        return bytes.withUnsafeBytes { stored in
            guard let base = stored.baseAddress else { return false }
            return RawMemory.bytesEqual(base + slot * Self.longestKey, source, count: raw.count)
        }
    }
}

/// A dictionary's keys, their key hashes and its values, as read so far.
struct XMLDictionaryParts {
    var keys = ContiguousArray<String>()
    var keyHashes: [UInt32] = []
    var values = ContiguousArray<PropertyListValue>()

    mutating func append(contentsOf other: XMLDictionaryParts) {
        keys.append(contentsOf: other.keys)
        keyHashes.append(contentsOf: other.keyHashes)
        values.append(contentsOf: other.values)
    }
}

extension XMLPlistParser {
    mutating func parseDictionary(_ tag: StartTag, openedAt start: Int, depth: Int) throws -> PropertyListValue {
        if tag.isEmpty { return .dictionary([:]) }
        var parts = XMLDictionaryParts()
        _ = try parseEntries(into: &parts, openedAt: start, depth: depth)
        return finishDictionary(&parts)
    }

    /// Reads the entries of the dictionary opened at `start` into `parts`,
    /// through its end tag; returns false. With `cut` (see
    /// XMLPropertyList+ParallelReader.swift) it stops instead where the next
    /// entry starts at `cut` and returns true, and throws if entries do not
    /// start there.
    mutating func parseEntries(into parts: inout XMLDictionaryParts, openedAt start: Int, depth: Int,
                               cut: Int? = nil) throws -> Bool {
        try readEntries(openedAt: start, cut: cut, key: { parser, keyTag, keyStart in
            keyTag.isEmpty ? ("", XMLKeyCache.keyHash(DictionaryKeyCheck.hash(UnsafeRawBufferPointer(start: nil, count: 0)), isASCII: true))
                : try parser.readKey(openedAt: keyStart)
        }, value: { parser, key in
            parts.keys.append(key.0)
            parts.keyHashes.append(key.1)
            parts.values.append(try parser.parseValue(depth: depth + 1))
        })
    }

    /// The walk of ``parseEntries(into:openedAt:depth:cut:)``, shared with
    /// the validator: `key` reads each `<key>` element's content (its start
    /// tag read, at `keyStart`), `value` the value that follows it.
    mutating func readEntries<Key>(openedAt start: Int, cut: Int? = nil,
                                   key readKeyContent: (inout XMLPlistParser, StartTag, _ keyStart: Int) throws -> Key,
                                   value readEntryValue: (inout XMLPlistParser, Key) throws -> Void) throws -> Bool {
        while true {
            try skipMisc()
            if let cut, position >= cut {
                guard position == cut else { throw failure(.syntax, "no entry starts at byte \(cut)") }
                return true
            }
            if atEndTag {
                try expectEndTag(.dict, openedAt: start)
                return false
            }
            let keyStart = position
            guard current == UInt8(ascii: "<") else {
                if position >= end { throw failure(.truncated, at: start, "<dict> is not closed") }
                throw failure(.syntax, "expected <key> in dictionary, found text")
            }
            let keyTag = try readStartTag()
            guard keyTag.kind == .key else {
                throw failure(.syntax, at: keyStart, "expected <key> in dictionary, found <\(name(of: keyTag))>")
            }
            let key = try readKeyContent(&self, keyTag, keyStart)
            try skipMisc()
            guard position < end else {
                throw failure(.truncated, "input ends after the dictionary key \(InputExcerpt.quoted(keyText(at: keyStart)))")
            }
            try readEntryValue(&self, key)
        }
    }

    /// The text of the `<key>` element at `keyStart`, read again (for a
    /// message: the validator does not keep keys).
    func keyText(at keyStart: Int) -> String {
        var parser = self
        parser.position = keyStart
        guard let tag = try? parser.readStartTag(), !tag.isEmpty else { return "" }
        return (try? parser.readKey(openedAt: keyStart).0) ?? ""
    }

    /// The dictionary of `parts` (a repeated key keeps its first place and
    /// last value), or the UID that CF writes as `{CF$UID = n}`.
    mutating func finishDictionary(_ parts: inout XMLDictionaryParts) -> PropertyListValue {
        let keysAreUnique = DictionaryKeyCheck.areUnique(parts.keys, asciiHashes: parts.keyHashes, scratch: &keyTableScratch)
        let entries = DictionaryKeyCheck.dictionary(keys: parts.keys, values: parts.values, keysAreUnique: keysAreUnique)
        // CF's convention for keyed-archive references in XML.
        if entries.count == 1, let reference = entries["CF$UID"], case .integer(let number) = reference,
           let value = number.uint64Value {
            return .uid(PropertyListUID(value))
        }
        return .dictionary(entries)
    }

    /// A `<key>`'s text and its key hash, consuming the end tag. Plain keys
    /// come from the key cache; ones with entities, CDATA or comments are
    /// read as any text.
    mutating func readKey(openedAt start: Int) throws -> (String, UInt32) {
        let contentStart = position
        while position < end {
            let byte = text[position]
            if byte == UInt8(ascii: "<") || byte == UInt8(ascii: "&") { break }
            position += 1
        }
        guard atEndTag else {
            position = contentStart
            let key = try readText(closing: .key, openedAt: start)
            var utf8 = key
            let hash = utf8.withUTF8 { bytes in
                let raw = UnsafeRawBufferPointer(bytes)
                return XMLKeyCache.keyHash(DictionaryKeyCheck.hash(raw), isASCII: BinaryObjectDecoder.isASCII(raw))
            }
            return (key, hash)
        }
        guard let key = keys.key(UnsafeRawBufferPointer(rebasing: text[contentStart..<position])) else {
            throw failure(.invalidEncoding, at: contentStart, "text is not valid UTF-8")
        }
        try expectEndTag(.key, openedAt: start)
        return key
    }
}
