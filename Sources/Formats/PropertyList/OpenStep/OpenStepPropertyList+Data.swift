import Foundation

extension OpenStepParser {
    /// `<hex>` data, or a GNUstep `<*…>` typed scalar or `<[base64]>` data,
    /// the reader at the `<`.
    mutating func parseAngleBracketed() throws -> PropertyListValue {
        let open = position
        position += 1
        switch byte(at: position) {
        case UInt8(ascii: "*"): return try parseTypedScalar(open: open)
        case UInt8(ascii: "["): return try parseBase64(open: open)
        default: return try parseHexData(open: open)
        }
    }

    mutating func parseHexData(open: Int) throws -> PropertyListValue {
        state.scratch.removeAll(keepingCapacity: true)
        while true {
            guard position < end else {
                throw failure(.syntax, at: position, "unexpected end of the input: expected '>' to close the data opened at \(lineAndColumn(of: open))")
            }
            let first = text[position]
            if first == UInt8(ascii: ">") {
                position += 1
                return .data(Self.buildsValues ? Data(state.scratch) : Data())
            }
            if let high = Self.hexValue(first) {
                guard let low = Self.hexValue(byte(at: position + 1)) else {
                    throw failure(.syntax, at: position + 1,
                                  "expected a second hex digit to complete the byte, found \(describe(at: position + 1)) (data needs an even number of hex digits)")
                }
                state.scratch.append(high << 4 | low)
                position += 2
            } else if TextDecoding.isWhitespace(first) || first == 0x0B || first == 0x0C {
                position += 1
            } else {
                throw failure(.syntax, at: position, "expected a hex digit or '>' in data, found \(describe(at: position))")
            }
        }
    }

    /// The text from the reader up to the next `>` (consumed), for the
    /// GNUstep forms, or an error naming what was being read.
    mutating func takeUntilClosingAngle(open: Int, what: String) throws -> UnsafeRawBufferPointer {
        let start = position
        while position < end, text[position] != UInt8(ascii: ">") { position += 1 }
        guard position < end else {
            throw failure(.syntax, at: open, "unterminated \(what): expected '>'")
        }
        position += 1
        return UnsafeRawBufferPointer(rebasing: text[start..<position - 1])
    }

    /// GNUstep's `<*I…>`, `<*R…>`, `<*B…>` and `<*D…>`.
    mutating func parseTypedScalar(open: Int) throws -> PropertyListValue {
        position += 1 // the '*'
        let kind = byte(at: position)
        position += 1
        let body = try takeUntilClosingAngle(open: open, what: "GNUstep typed value")
        let value: PropertyListValue?
        let name: String
        switch kind {
        case UInt8(ascii: "I"):
            name = "integer"
            value = PropertyListInteger(decimalText: body).map { .integer($0) }
        case UInt8(ascii: "R"):
            name = "real"
            // Swift's parser takes what strtod takes; whitespace it would skip is refused first.
            let textual = String(decoding: body, as: UTF8.self)
            value = body.contains(where: TextDecoding.isWhitespace) ? nil : Double(textual).map { .real($0) }
        case UInt8(ascii: "B"):
            name = "Boolean"
            value = body.count != 1 ? nil : body[0] == UInt8(ascii: "Y") ? .bool(true) : body[0] == UInt8(ascii: "N") ? .bool(false) : nil
        case UInt8(ascii: "D"):
            name = "date"
            value = PropertyListDateText.parseOpenStep(body).map { .date($0) }
        default:
            throw failure(.syntax, at: open + 2, "expected a GNUstep type letter I, R, B or D after '<*', found \(describe(at: open + 2))")
        }
        guard let value else {
            let shown = String(decoding: body.prefix(60), as: UTF8.self)
            let form = switch kind {
            case UInt8(ascii: "I"): "a decimal integer from -2^63 to 2^64-1"
            case UInt8(ascii: "R"): "a decimal real"
            case UInt8(ascii: "B"): "Y or N"
            default: "YYYY-MM-DD HH:MM:SS +ZZZZ"
            }
            throw failure(.invalidScalar, at: open, "invalid GNUstep \(name) \(InputExcerpt.quoted(shown)): expected \(form)")
        }
        return value
    }

    /// GNUstep's `<[base64]>` data; whitespace inside is skipped.
    mutating func parseBase64(open: Int) throws -> PropertyListValue {
        position += 1 // the '['
        let body = try takeUntilClosingAngle(open: open, what: "base64 data")
        guard let last = body.last, last == UInt8(ascii: "]") else {
            throw failure(.syntax, at: position - 1, "expected ']>' to close the base64 data opened at \(lineAndColumn(of: open))")
        }
        var characters = body.dropLast().filter { !(TextDecoding.isWhitespace($0) || $0 == 0x0B || $0 == 0x0C) }
        // GNUstep pads; tolerate a writer that did not.
        if characters.count % 4 != 0 { characters += repeatElement(UInt8(ascii: "="), count: 4 - characters.count % 4) }
        guard let data = Data(base64Encoded: Data(characters)) else {
            throw failure(.invalidScalar, at: open, "invalid base64 in <[…]> data")
        }
        return .data(data)
    }
}
