import Foundation
import TestSupport
import Testing
@testable import PropertyList

/// The validating pass behind `sandbox plist -lint` for JSON accepts exactly
/// what the decoder reads and refuses everything else with the decoder's
/// error: same code, same message, same line and column.
@Suite struct JSONPropertyListValidatorTests {
    static let agreement = ValidatorAgreement.json

    static func text(_ text: String) -> Data { Data(text.utf8) }

    /// JSON documents made from the shared corpus: each file the decoder
    /// reads and the JSON writer can hold, written as JSON.
    static func corpusAsJSON() throws -> [(String, Data)] {
        var documents: [(String, Data)] = []
        for folder in ["openstep", "xml", "bplist", "keyed_archive"] {
            for file in SharedFixtures.files(in: folder) {
                guard let value = try? PropertyListValue(data: Data(contentsOf: file)),
                      let json = try? value.encoded(as: .json) else { continue }
                documents.append(("\(folder)/\(file.lastPathComponent) as JSON", json))
            }
        }
        return documents
    }

    /// Every file of the shared corpus as it is (refused by both, mostly),
    /// and every one the JSON writer can hold as JSON, also in UTF-16.
    @Test func theValidatorAndTheDecoderAgreeOnTheSharedCorpus() throws {
        for folder in ["openstep", "xml", "malformed", "keyed_archive", "misc", "bplist"] {
            for file in SharedFixtures.files(in: folder) {
                Self.agreement.expect(try Data(contentsOf: file), "\(folder)/\(file.lastPathComponent)")
            }
        }
        let documents = try Self.corpusAsJSON()
        try #require(documents.count >= 30, "the shared corpus is missing (\(documents.count) documents as JSON)")
        for (name, data) in documents {
            #expect(Self.agreement.expect(data, name))
            let text = String(decoding: data, as: UTF8.self)
            for encoding: String.Encoding in [.utf16LittleEndian, .utf16BigEndian] {
                guard let transcoded = text.data(using: encoding) else { continue }
                Self.agreement.expect(transcoded, "\(name) in \(encoding)")
            }
        }
    }

    @Test func theyAgreeOnEveryTruncationAndSingleByteCorruption() throws {
        let bytes: [UInt8] = [0x00, 0xFF, 0xC3, 0x80, 0x20, 0x0A, 0x1F] + Array("{}[]\"\\:,-+.eE0nt/u".utf8)
        let documents = try Self.corpusAsJSON()
        for wanted in ["openstep/ddplist_test1-ascii-gnustep.plist", "openstep/libplist_o1.ostep", "xml/cpython_TESTDATA_xml.plist"] {
            guard let (name, data) = documents.first(where: { $0.0.hasPrefix(wanted) }) else {
                Issue.record("\(wanted) did not convert to JSON")
                continue
            }
            Self.agreement.expectOnDamagedCopies(of: data, named: name, bytes: bytes)
        }
        let escapes = Self.text("{\"k\\u00e9\\n\": [\"\\ud83d\\ude00\", -0.5e-3, 18446744073709551615, 1e999, true, false, {\"CF$UID\": 3}]}")
        Self.agreement.expectOnDamagedCopies(of: escapes, named: "escapes and numbers", bytes: bytes)
    }

    @Test func theyAgreeOnRandomDocumentsWithRandomDamage() throws {
        try Self.agreement.expectOnRandomDocuments(.json, profile: .json, count: 300)
    }

    @Test func theyAgreeOnTheHostileShapes() throws {
        let levels = 100_000
        var cases: [(String, Data, PropertyListLimits)] = [
            ("100,000 nested arrays", Self.text(String(repeating: "[", count: levels) + String(repeating: "]", count: levels)), .default),
            ("100,000 nested objects", Self.text(String(repeating: "{\"a\":", count: levels)), .default),
            ("shallow depth limit", Self.text("[[[1]]]"), .init(maximumDepth: 2)),
            ("object limit", Self.text("[1, 2]"), .init(maximumObjectCount: 2)),
            ("object limit on keys", Self.text("{\"a\": 1}"), .init(maximumObjectCount: 2)),
            ("input size limit", Self.text("[1]"), .init(maximumInputSize: 2)),
        ]
        let texts: [(String, String)] = [
            ("empty", ""), ("whitespace", "  \n"), ("null", "null"), ("null in an array", "[1, null]"), ("nul", "nul"),
            ("true", "true"), ("tru", "tru"), ("two values", "1 2"), ("trailing comma", "[1,]"), ("object trailing comma", "{\"a\":1,}"),
            ("missing colon", "{\"a\" 1}"), ("missing colon after a long key", "{\"" + String(repeating: "k", count: 200) + "\" 1}"),
            ("missing colon after an escaped key", "{\"k\\u00e9\\\"\" 1}"), ("non-string key", "{1: 2}"), ("repeated keys", "{\"a\":1,\"a\":2}"),
            ("CF$UID", "{\"CF$UID\": 7}"), ("CF$UID negative", "{\"CF$UID\": -7}"), ("leading zero", "01"), ("minus alone", "-"),
            ("leading plus", "+1"), ("fraction without digits", "1."), ("exponent without digits", "1e"), ("huge integer", "123456789012345678901234567890"),
            ("2^64", "18446744073709551616"), ("-2^63 - 1", "-9223372036854775809"), ("huge real", "1e999"), ("long real", String(repeating: "9", count: 400) + ".5"),
            ("escapes", "\"\\\"\\\\\\/\\b\\f\\n\\r\\t\\u0041\""), ("bad escape", "\"\\x\""), ("short u", "\"\\u12\""), ("unpaired high", "\"\\ud83d\""),
            ("unpaired high then text", "\"\\ud83dx\""), ("unpaired low", "\"\\ude00\""), ("pair", "\"\\ud83d\\ude00\""), ("control character", "\"a\u{1}b\""),
            ("control character after an escape", "\"\\n\u{1}\""), ("unterminated string", "\"abc"), ("unterminated after an escape", "\"a\\n"),
            ("single quotes", "'a'"), ("comment", "[1 /* c */]"), ("unclosed array", "[1, 2"), ("unclosed object", "{\"a\": 1"),
        ]
        for (name, text) in texts { cases.append((name, Self.text(text), .default)) }
        cases.append(("invalid UTF-8", Data("[\"a".utf8) + Data([0xC3, 0x28]) + Data("\"]".utf8), .default))
        cases.append(("invalid UTF-8 after an escape", Data("[\"\\n".utf8) + Data([0xED, 0xA0, 0x80]) + Data("\"]".utf8), .default))
        cases.append(("invalid UTF-8 key", Data("{\"".utf8) + Data([0xFF]) + Data("\": 1}".utf8), .default))
        cases.append(("odd UTF-16", Data([0xFF, 0xFE, 0x5B, 0x00, 0x31]), .default))
        for (name, data, limits) in cases { Self.agreement.expect(data, limits: limits, name) }
    }

    /// The message names the key, which the validator never made: it reads
    /// it again for the message.
    @Test func aMessageNamesTheKeyAsTheDecoderDoes() throws {
        let error = #expect(throws: PropertyListError.self) {
            try JSONPropertyListReader().validate(Self.text("{\"caf\\u00e9 \\\"q\\\"\" 1}"))
        }
        #expect(error?.message.contains("café \"q\"") == true, "\(error?.message ?? "")")
    }
}
