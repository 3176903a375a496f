extension OpenStepParser {
    /// Whether `byte` may appear in an unquoted string: CF's ASCII set
    /// `A-Z a-z 0-9 _ $ / : . -`, plus every byte of a non-ASCII character
    /// (the caller stops at U+2028 / U+2029).
    @inline(__always) static func isUnquotedCharacter(_ byte: UInt8) -> Bool {
        byte >= 0x80 || isUnquotedASCII(byte)
    }

    /// CF's set of characters allowed in unquoted strings.
    @inline(__always) static func isUnquotedASCII(_ byte: UInt8) -> Bool {
        // Bit n of the mask for bytes 0-63 (then 64-127) says whether byte n is allowed.
        let low: UInt64 = 1 << 36 | 1 << 45 | 1 << 46 | 1 << 47 | 0x3FF << 48 | 1 << 58 // $ - . / 0-9 :
        let high: UInt64 = 0x3FF_FFFF << 1 | 1 << 31 | 0x3FF_FFFF << 33 // A-Z _ a-z
        if byte < 64 { return low >> UInt64(byte) & 1 == 1 }
        if byte < 128 { return high >> UInt64(byte - 64) & 1 == 1 }
        return false
    }

    mutating func parseUnquotedString() throws -> String {
        let start = position
        while position < end, Self.isUnquotedCharacter(text[position]), !isUnicodeSeparator(at: position) {
            position += 1
        }
        return try makeString(UnsafeRawBufferPointer(rebasing: text[start..<position]), at: start)
    }

    /// A `"…"` or `'…'` string, the reader at its opening quote.
    mutating func parseQuotedString() throws -> String {
        let quote = text[position]
        let open = position
        position += 1
        let start = position
        while position < end, text[position] != quote, text[position] != UInt8(ascii: "\\") { position += 1 }
        guard position < end else { throw unterminatedString(open) }
        if text[position] == quote {
            // No escapes: the common case, one copy straight into the String.
            position += 1
            return try makeString(UnsafeRawBufferPointer(rebasing: text[start..<position - 1]), at: start)
        }
        state.scratch.removeAll(keepingCapacity: true)
        state.scratch.append(contentsOf: UnsafeRawBufferPointer(rebasing: text[start..<position]))
        while true {
            guard position < end else { throw unterminatedString(open) }
            let byte = text[position]
            if byte == quote {
                position += 1
                break
            }
            if byte == UInt8(ascii: "\\") {
                try appendEscape(open: open)
                continue
            }
            let run = position
            while position < end, text[position] != quote, text[position] != UInt8(ascii: "\\") { position += 1 }
            state.scratch.append(contentsOf: UnsafeRawBufferPointer(rebasing: text[run..<position]))
        }
        return try state.scratch.withUnsafeBytes { try makeString($0, at: start) }
    }

    func unterminatedString(_ open: Int) -> PropertyListError {
        let quote = Character(Unicode.Scalar(text[open]))
        return failure(.syntax, at: open, "unterminated string: expected a closing \(quote)")
    }

    /// Decodes the escape at the backslash under the reader into `state.scratch`.
    mutating func appendEscape(open: Int) throws {
        let backslash = position
        position += 1
        guard position < end else { throw unterminatedString(open) }
        let letter = text[position]
        position += 1
        switch letter {
        case UInt8(ascii: "a"): state.scratch.append(0x07)
        case UInt8(ascii: "b"): state.scratch.append(0x08)
        case UInt8(ascii: "f"): state.scratch.append(0x0C)
        case UInt8(ascii: "n"): state.scratch.append(0x0A)
        case UInt8(ascii: "r"): state.scratch.append(0x0D)
        case UInt8(ascii: "t"): state.scratch.append(0x09)
        case UInt8(ascii: "v"): state.scratch.append(0x0B)
        case UInt8(ascii: "0")...UInt8(ascii: "7"):
            // At most three digits, so "\0005" is NUL then '5'; CF keeps the low 8 bits.
            var value = letter &- 0x30
            for _ in 0..<2 {
                let digit = byte(at: position) &- 0x30
                guard position < end, digit < 8 else { break }
                value = value &<< 3 &+ digit
                position += 1
            }
            guard let scalar = NeXTSTEPEncoding.scalar(for: value) else {
                throw failure(.invalidEncoding, at: backslash,
                              "octal escape \\\(String(value, radix: 8)) is not a NeXTSTEP character")
            }
            TextDecoding.appendUTF8(scalar, to: &state.scratch)
        case UInt8(ascii: "U"):
            try appendUTF16Escape(backslash: backslash, letter: letter, digits: 1...4)
        default:
            if letter < 0x80 {
                state.scratch.append(letter) // `\"`, `\\`, a newline, or any other character stands for itself
            } else {
                position -= 1 // a non-ASCII character stands for itself: copy all its bytes
            }
        }
    }
}
