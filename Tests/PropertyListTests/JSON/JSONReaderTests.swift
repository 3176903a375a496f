import Foundation
import Testing
@testable import PropertyList

@Suite struct JSONReaderTests {
    let probe = TextReaderProbe { try JSONPropertyListReader(limits: $1).read($0) }

    func read(_ text: String, limits: PropertyListLimits = .default) throws -> PropertyListValue { try probe.read(text, limits: limits) }
    func readError(_ text: String, limits: PropertyListLimits = .default) -> PropertyListError? { probe.error(text, limits: limits) }

    @Test func objectsArraysAndLiterals() throws {
        let value = try read(#" { "b" : [ 1 , "two" , true , false , { } , [ ] ] , "a" : { "x" : -0.5 } } "#)
        #expect(value == ["b": [1, "two", true, false, [:], []], "a": ["x": -0.5]])
        #expect(value.dictionaryValue?.keys.elements == ["b", "a"])
    }

    @Test func topLevelScalars() throws {
        #expect(try read("42") == 42)
        #expect(try read("\"s\"") == "s")
        #expect(try read(" true ") == true)
    }

    @Test func numbers() throws {
        #expect(try read("[0, -0, 9223372036854775807, -9223372036854775808, 18446744073709551615]")
            == [0, 0, .integer(PropertyListInteger(Int64.max)), .integer(PropertyListInteger(Int64.min)), .integer(PropertyListInteger(UInt64.max))])
        #expect(try read("18446744073709551616") == .real(18446744073709551616.0))
        #expect(try read("-9223372036854775809") == .real(-9223372036854775809.0))
        #expect(try read("[1.0, 1e2, 1E-2, 2.5e+3, -0.0, 0.1]") == [.real(1), .real(100), .real(0.01), .real(2500), .real(-0.0), .real(0.1)])
        #expect(try read("1e400") == .real(.infinity))
    }

    @Test func strings() throws {
        #expect(try read(#""a\"b\\c\/d\b\f\n\r\t\u0041\u00e9\uD834\uDD1E""#) == "a\"b\\c/d\u{8}\u{C}\n\r\tAé𝄞")
        #expect(try read("\"日本 \u{7F}\"") == "日本 \u{7F}")
    }

    @Test func duplicateKeysKeepFirstPlaceAndLastValue() throws {
        let value = try read(#"{"a": 1, "b": 2, "a": 3}"#)
        #expect(value.dictionaryValue?.keys.elements == ["a", "b"])
        #expect(value["a"] == 3)
    }

    @Test func uids() throws {
        #expect(try read(#"{"CF$UID": 7}"#) == .uid(PropertyListUID(7)))
        #expect(try read(#"{"CF$UID": -1}"#) == ["CF$UID": -1])
        #expect(try read(#"{"CF$UID": 7, "x": 1}"#) == ["CF$UID": 7, "x": 1])
        #expect(try read(#"{"CF$UID": "7"}"#) == ["CF$UID": "7"])
    }

    @Test func encodings() throws {
        #expect(try JSONPropertyListReader().read(Data([0xEF, 0xBB, 0xBF] + Array("[1]".utf8))) == [1])
        var utf16: [UInt8] = [0xFE, 0xFF]
        for unit in #"{"k": "é"}"#.utf16 { utf16 += [UInt8(unit >> 8), UInt8(unit & 0xFF)] }
        #expect(try JSONPropertyListReader().read(Data(utf16)) == ["k": "é"])
    }

    @Test func nullIsUnsupported() {
        let error = readError("{\n  \"a\": null\n}")
        #expect(error?.code == .unsupportedValue)
        #expect(error?.format == .json)
        #expect(error?.location == .text(line: 2, column: 8))
    }

    @Test func syntaxErrors() {
        let cases: [(String, String, PropertyListError.Location)] = [
            ("", "expected a JSON value", .text(line: 1, column: 1)),
            ("[1,]", "expected a JSON value", .text(line: 1, column: 4)),
            ("{\"a\":1,}", "expected a string key", .text(line: 1, column: 8)),
            ("{\"a\" 1}", "expected ':'", .text(line: 1, column: 6)),
            ("{'a':1}", "expected a string key", .text(line: 1, column: 2)),
            ("[1 2]", "expected ',' or ']'", .text(line: 1, column: 4)),
            ("{\"a\":1 \"b\":2}", "expected ',' or '}'", .text(line: 1, column: 8)),
            ("[1", "expected ',' or ']'", .text(line: 1, column: 3)),
            ("01", "leading zeros", .text(line: 1, column: 1)),
            ("-", "expected a digit", .text(line: 1, column: 2)),
            ("1.", "after the decimal point", .text(line: 1, column: 3)),
            ("1e+", "in the exponent", .text(line: 1, column: 4)),
            ("+1", "expected a JSON value", .text(line: 1, column: 1)),
            ("tru", "expected 'true'", .text(line: 1, column: 1)),
            ("[1] x", "expected the end of the input", .text(line: 1, column: 5)),
            ("\n\n  \"abc", "unterminated string", .text(line: 3, column: 3)),
            ("\"a\nb\"", "control character", .text(line: 1, column: 3)),
            (#""\x""#, "invalid escape", .text(line: 1, column: 2)),
            (#""\u12G4""#, "expected 4 hex digits after \\u", .text(line: 1, column: 2)),
            ("// c\n1", "expected a JSON value", .text(line: 1, column: 1)),
            ("[NaN]", "expected a JSON value", .text(line: 1, column: 2)),
        ]
        probe.expectSyntaxErrors(cases)
    }

    @Test func loneSurrogatesAreEncodingErrors() {
        for text in [#""\uD834""#, #""\uDD1E""#, #""\uD834\u0041""#, #""\uD834x""#] {
            let error = readError(text)
            #expect(error?.code == .invalidEncoding, "\(text)")
            #expect(error?.location == .text(line: 1, column: 2), "\(text)")
        }
        #expect(throws: PropertyListError.self) { try JSONPropertyListReader().read(Data([0x22, 0xC3, 0x22])) }
    }

    @Test func depthLimit() throws {
        let limits = PropertyListLimits(maximumDepth: 3)
        #expect(try read("[[[1]]]", limits: limits) == [[[1]]])
        let error = readError("[[{\"a\":[1]}]]", limits: limits)
        #expect(error?.code == .depthLimitExceeded)
        #expect(error?.location == .text(line: 1, column: 8))
    }

    @Test func hugeNestingFailsFast() {
        #expect(readError(String(repeating: "[", count: 100_000))?.code == .depthLimitExceeded)
        #expect(readError(String(repeating: "{\"a\":", count: 100_000))?.code == .depthLimitExceeded)
    }

    @Test func objectAndSizeLimits() throws {
        let limits = PropertyListLimits(maximumObjectCount: 3)
        #expect(try read("[1, 2]", limits: limits) == [1, 2])
        #expect(readError("[1, 2, 3]", limits: limits)?.code == .objectLimitExceeded)
        #expect(readError(#"{"a": 1, "b": 2}"#, limits: limits)?.code == .objectLimitExceeded)
        #expect(readError("[1]", limits: PropertyListLimits(maximumInputSize: 2))?.code == .sizeLimitExceeded)
    }

    // MARK: Round trips

    static let sample: PropertyListValue = [
        "name": "Possessions", "empty": "", "escapes": "\"\\/\u{0}\u{1F}\n\t", "unicode": "café ☕︎ 𝄞 日本",
        "count": 42, "negative": -5, "big": .integer(PropertyListInteger(UInt64.max)), "min": .integer(PropertyListInteger(Int64.min)),
        "pi": 3.25, "whole": 2.0, "tiny": .real(.leastNonzeroMagnitude), "huge": .real(.greatestFiniteMagnitude), "third": .real(1.0 / 3),
        "negativeZero": .real(-0.0), "yes": true, "no": false, "uid": .uid(PropertyListUID(9)),
        "list": [1, "x", [], [:], [["deep": [1, [2, [3]]]]]],
    ]

    @Test(arguments: [true, false])
    func roundTrip(pretty: Bool) throws {
        let data = try JSONPropertyListWriter(prettyPrinted: pretty).write(Self.sample)
        #expect(try JSONPropertyListReader().read(data) == Self.sample)
    }

    @Test func openStepFixturesRoundTripThroughJSON() throws {
        for name in OpenStepFixtures.names {
            let value = try OpenStepPropertyListReader().read(try OpenStepFixtures.data(name))
            guard !Self.containsDateOrData(value) else { continue }
            #expect(try JSONPropertyListReader().read(try JSONPropertyListWriter().write(value)) == value, "\(name)")
        }
    }

    static func containsDateOrData(_ value: PropertyListValue) -> Bool {
        switch value {
        case .date, .data: true
        case .array(let elements): elements.contains(where: containsDateOrData)
        case .dictionary(let entries): entries.values.contains(where: containsDateOrData)
        default: false
        }
    }
}

@Suite struct TextUTF8ValidationTests {
    @Test(arguments: [
        [0x41], [0xC2, 0x80], [0xDF, 0xBF], [0xE0, 0xA0, 0x80], [0xED, 0x9F, 0xBF], [0xEE, 0x80, 0x80],
        [0xEF, 0xBF, 0xBF], [0xF0, 0x90, 0x80, 0x80], [0xF4, 0x8F, 0xBF, 0xBF], [],
    ] as [[UInt8]])
    func wellFormed(_ bytes: [UInt8]) {
        #expect(bytes.withUnsafeBytes { JSONParser<DecodedText>.isValidUTF8($0) })
    }

    @Test(arguments: [
        [0x80], [0xBF], [0xC0, 0x80], [0xC1, 0xBF], [0xC2], [0xC2, 0x41], [0xE0, 0x9F, 0xBF], [0xED, 0xA0, 0x80],
        [0xE1, 0x80], [0xE1, 0x80, 0x41], [0xF0, 0x8F, 0xBF, 0xBF], [0xF4, 0x90, 0x80, 0x80], [0xF5, 0x80, 0x80, 0x80],
        [0xF1, 0x80, 0x80], [0xFF], [0x41, 0xC3],
    ] as [[UInt8]])
    func malformed(_ bytes: [UInt8]) {
        #expect(!bytes.withUnsafeBytes { JSONParser<DecodedText>.isValidUTF8($0) })
        #expect(bytes.withUnsafeBytes { String(validating: $0, as: UTF8.self) } == nil)
    }
}
