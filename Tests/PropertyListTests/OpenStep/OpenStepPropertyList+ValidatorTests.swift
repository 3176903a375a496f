import Foundation
import TestSupport
import Testing
@testable import PropertyList

/// The validating pass behind `sandbox plist -lint` for OpenStep and
/// `.strings` text accepts exactly what the decoder reads and refuses
/// everything else with the decoder's error: same code, same message, same
/// line and column.
@Suite struct OpenStepPropertyListValidatorTests {
    static let agreement = ValidatorAgreement.openStep

    static func text(_ text: String) -> Data { Data(text.utf8) }

    /// Every file of the shared corpus, whatever its format (most binary and
    /// XML files are refused by both), and each OpenStep one again in UTF-16.
    @Test func theValidatorAndTheDecoderAgreeOnTheSharedCorpus() throws {
        var openStepFiles = 0, accepted = 0
        for folder in ["openstep", "xml", "malformed", "keyed_archive", "misc", "bplist"] {
            for file in SharedFixtures.files(in: folder) {
                let data = try Data(contentsOf: file)
                if Self.agreement.expect(data, "\(folder)/\(file.lastPathComponent)") { accepted += 1 }
                guard folder == "openstep" else { continue }
                openStepFiles += 1
                guard let text = String(data: data, encoding: .utf8) else { continue }
                for encoding: String.Encoding in [.utf16LittleEndian, .utf16BigEndian, .utf16] {
                    guard let transcoded = text.data(using: encoding) else { continue }
                    Self.agreement.expect(transcoded, "\(folder)/\(file.lastPathComponent) in \(encoding)")
                }
            }
        }
        try #require(openStepFiles >= 18, "the shared corpus is missing (\(openStepFiles) OpenStep files)")
        #expect(accepted >= 18)
    }

    @Test func theyAgreeOnEveryTruncationAndSingleByteCorruption() throws {
        let bytes: [UInt8] = [0x00, 0xFF, 0xC3, 0x80, 0x20, 0x0A, 0xE2] + Array("{}()<>\"'\\;=,/*x[]$U0".utf8)
        for name in ["ddplist_test1-ascii-gnustep.plist", "ddplist_test1-ascii-gnustep-base64.plist", "libplist_test.strings",
                     "libplist_o1.ostep", "ddplist_test-ascii-utf-16le.plist", "sf_test_oldStylePlist_getSlashedChars_octal.plist"] {
            let data = try SharedFixtures.data("openstep/\(name)")
            Self.agreement.expectOnDamagedCopies(of: data, named: name, bytes: bytes)
        }
    }

    @Test func theyAgreeOnRandomDocumentsWithRandomDamage() throws {
        try Self.agreement.expectOnRandomDocuments(.openStep, profile: .binary, count: 300)
    }

    @Test func theyAgreeOnTheHostileShapes() throws {
        let levels = 100_000
        var cases: [(String, Data, PropertyListLimits)] = [
            ("100,000 nested arrays", Self.text(String(repeating: "(", count: levels) + String(repeating: ")", count: levels)), .default),
            ("100,000 nested dictionaries", Self.text(String(repeating: "{a=", count: levels)), .default),
            ("shallow depth limit", Self.text("(((a)))"), .init(maximumDepth: 2)),
            ("object limit", Self.text("(a, b)"), .init(maximumObjectCount: 2)),
            ("object limit in a .strings file", Self.text("a = b; c = d;"), .init(maximumObjectCount: 3)),
            ("input size limit", Self.text("(a)"), .init(maximumInputSize: 2)),
        ]
        let texts: [(String, String)] = [
            ("empty", ""), ("only a comment", "/* c */ // d"), ("unterminated comment", "/* c"), (".strings", "a = b; \"c\" = 'd';"),
            (".strings shortcut", "a; b;"), (".strings missing ;", "a = b"), (".strings with a dictionary value", "a = {b = c;};"),
            ("two values", "a b"), ("string then =", "(a) = b;"), ("key without value", "{a = ;}"), ("missing ;", "{a = b}"),
            ("missing = with a long key", "{" + String(repeating: "k", count: 200) + " b;}"),
            ("missing ; after a quoted key", "{\"k\\n\\U00e9\" = b c}"), ("missing ; after a value for an escaped key", "{'k\\101' = (a) x}"),
            ("repeated keys", "{a = b; a = c;}"), ("CF$UID", "{CF$UID = <*I5>;}"), ("CF$UID string", "{CF$UID = 5;}"),
            ("unclosed dictionary", "{a = b;"), ("unclosed array", "(a, b"), ("trailing comma", "(a, b,)"), ("double comma", "(a,,b)"),
            ("array missing comma", "(a b)"), ("hex data", "<0fbd 7777>"), ("odd hex", "<0fb>"), ("bad hex", "<0fxz>"), ("unclosed data", "<0f"),
            ("typed integer", "<*I12>"), ("typed huge integer", "<*I123456789012345678901234567890>"), ("typed bad integer", "<*Ix>"),
            ("typed real", "<*R1.5>"), ("typed bad real", "<*R1.5 >"), ("typed Boolean", "<*BY>"), ("typed bad Boolean", "<*BX>"),
            ("typed date", "<*D2011-09-12 20:15:23 +0000>"), ("typed bad date", "<*D2011-13-12 20:15:23 +0000>"),
            ("typed unknown", "<*Q1>"), ("typed unterminated", "<*I12"), ("base64", "<[AAEC]>"), ("base64 unpadded", "<[AAE]>"),
            ("bad base64", "<[A!]>"), ("base64 without ]", "<[AAEC>"), ("octal escapes", "\"\\101\\341\\0005\""), ("undefined octal", "\"\\376\""),
            ("U escapes", "\"\\U00e9\\Ud83d\\Ude00\""), ("unpaired high", "\"\\Ud83d\""), ("unpaired low", "\"\\Ude00\""), ("U without digits", "\"\\Ux\""),
            ("unterminated string", "\"abc"), ("unterminated escape", "\"abc\\"), ("single quotes", "'a\"b'"), ("non-ASCII unquoted", "(café, 日本)"),
            ("line separator", "(a\u{2028}b)"), ("bad value", "(a, ;)"), ("bad key", "{( = b;}"), ("bad .strings key", "a = b; ( = c;"),
            ("slash string", "(/usr/bin)"), ("comment in array", "(a /* x */, // y\n b)"),
        ]
        for (name, text) in texts { cases.append((name, Self.text(text), .default)) }
        cases.append(("invalid UTF-8 unquoted", Data("(a".utf8) + Data([0xC3, 0x28]) + Data(")".utf8), .default))
        cases.append(("invalid UTF-8 quoted", Data("(\"a".utf8) + Data([0xED, 0xA0, 0x80]) + Data("\")".utf8), .default))
        cases.append(("invalid UTF-8 in an escaped string", Data("(\"\\n".utf8) + Data([0xFF]) + Data("\")".utf8), .default))
        cases.append(("invalid UTF-8 key", Data("{".utf8) + Data([0xC3, 0x28]) + Data(" = b}".utf8), .default))
        cases.append(("odd UTF-16", Data([0xFF, 0xFE, 0x28, 0x00, 0x61]), .default))
        for (name, data, limits) in cases { Self.agreement.expect(data, limits: limits, name) }
    }

    /// The message names the key, which the validator never made: it reads
    /// it again for the message.
    @Test func aMessageNamesTheKeyAsTheDecoderDoes() throws {
        let data = Self.text("{\"caf\\U00e9 \\\"q\\\"\" = (a) b;}")
        let error = #expect(throws: PropertyListError.self) { try OpenStepPropertyListReader().validate(data) }
        #expect(error?.message.contains("café \"q\"") == true, "\(error?.message ?? "")")
    }
}
