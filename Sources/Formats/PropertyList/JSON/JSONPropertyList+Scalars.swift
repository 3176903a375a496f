extension JSONParser {
    /// A number: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
    mutating func parseNumber() throws -> PropertyListValue {
        let start = position
        if byte(at: position) == UInt8(ascii: "-") { position += 1 }
        let firstDigit = position
        try skipDigits(what: "a digit")
        if text[firstDigit] == UInt8(ascii: "0"), position - firstDigit > 1 {
            throw failure(.syntax, at: firstDigit, "numbers may not have leading zeros")
        }
        var isInteger = true
        if byte(at: position) == UInt8(ascii: ".") {
            isInteger = false
            position += 1
            try skipDigits(what: "a digit after the decimal point")
        }
        if byte(at: position) | 0x20 == UInt8(ascii: "e") {
            isInteger = false
            position += 1
            if byte(at: position) == UInt8(ascii: "+") || byte(at: position) == UInt8(ascii: "-") { position += 1 }
            try skipDigits(what: "a digit in the exponent")
        }
        let literal = UnsafeRawBufferPointer(rebasing: text[start..<position])
        // Integers beyond −2⁶³ … 2⁶⁴−1 fall through to the nearest real.
        if isInteger, let integer = PropertyListInteger(decimalText: literal) { return .integer(integer) }
        guard let real = Double(String(decoding: literal, as: UTF8.self)) else {
            throw failure(.invalidScalar, at: start, "number is not representable as a real")
        }
        return .real(real)
    }

    mutating func skipDigits(what: String) throws {
        let start = position
        while position < end, text[position] &- 0x30 < 10 { position += 1 }
        guard position > start else { throw failure(.syntax, at: position, "expected \(what), found \(describe(at: position))") }
    }

    /// A string, the reader at its opening quote.
    mutating func parseString() throws -> String {
        let open = position
        position += 1
        let start = position
        while position < end {
            let byte = text[position]
            if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte < 0x20 { break }
            position += 1
        }
        if position < end, text[position] == UInt8(ascii: "\"") {
            // No escapes: the common case, one copy straight into the String.
            position += 1
            return try makeString(UnsafeRawBufferPointer(rebasing: text[start..<position - 1]), at: start)
        }
        state.scratch.removeAll(keepingCapacity: true)
        state.scratch.append(contentsOf: UnsafeRawBufferPointer(rebasing: text[start..<position]))
        while true {
            guard position < end else {
                throw failure(.syntax, at: open, "unterminated string: expected a closing '\"'")
            }
            let byte = text[position]
            if byte == UInt8(ascii: "\"") {
                position += 1
                break
            }
            if byte == UInt8(ascii: "\\") {
                try appendEscape()
            } else if byte < 0x20 {
                throw failure(.syntax, at: position, "control character 0x\(String(byte, radix: 16, uppercase: true)) must be escaped in a string")
            } else {
                let run = position
                while position < end, text[position] != UInt8(ascii: "\""), text[position] != UInt8(ascii: "\\"), text[position] >= 0x20 {
                    position += 1
                }
                state.scratch.append(contentsOf: UnsafeRawBufferPointer(rebasing: text[run..<position]))
            }
        }
        return try state.scratch.withUnsafeBytes { try makeString($0, at: start) }
    }

    /// Decodes the escape at the backslash under the reader into `state.scratch`.
    mutating func appendEscape() throws {
        let backslash = position
        let letter = byte(at: position + 1)
        position += 2
        switch letter {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): state.scratch.append(letter)
        case UInt8(ascii: "b"): state.scratch.append(0x08)
        case UInt8(ascii: "f"): state.scratch.append(0x0C)
        case UInt8(ascii: "n"): state.scratch.append(0x0A)
        case UInt8(ascii: "r"): state.scratch.append(0x0D)
        case UInt8(ascii: "t"): state.scratch.append(0x09)
        case UInt8(ascii: "u"):
            try appendUTF16Escape(backslash: backslash, letter: letter, digits: 4...4)
        default:
            throw failure(.syntax, at: backslash, "invalid escape: expected one of \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX")
        }
    }
}
