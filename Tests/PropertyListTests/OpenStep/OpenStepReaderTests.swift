import Foundation
import Testing
@testable import PropertyList

@Suite struct OpenStepReaderTests {
    let probe = TextReaderProbe { try OpenStepPropertyListReader(limits: $1).read($0) }

    func read(_ text: String, limits: PropertyListLimits = .default) throws -> PropertyListValue { try probe.read(text, limits: limits) }
    func readError(_ text: String, limits: PropertyListLimits = .default) -> PropertyListError? { probe.error(text, limits: limits) }

    // MARK: Grammar

    @Test func dictionariesArraysAndStrings() throws {
        let value = try read(#"{ a = b; "quoted key" = 'single'; list = (1, "two", (three), {}, ()); nested = { x = y; }; }"#)
        #expect(value == [
            "a": "b", "quoted key": "single", "list": ["1", "two", ["three"], [:], []], "nested": ["x": "y"],
        ])
    }

    @Test func trailingCommaAndEmptyContainers() throws {
        #expect(try read("(a, b,)") == ["a", "b"])
        #expect(try read("( )") == [])
        #expect(try read("{ }") == [:])
    }

    @Test func unquotedCharacterSet() throws {
        #expect(try read("{ path = /usr/local/bin:$PATH; v = -1.5e-3; id = ABC_def.09; }")
            == ["path": "/usr/local/bin:$PATH", "v": "-1.5e-3", "id": "ABC_def.09"])
        // Non-ASCII characters may stand unquoted; U+2028 separates like whitespace.
        #expect(try read("(café,\u{2028}naïve)") == ["café", "naïve"])
    }

    @Test func keyAloneIsItsOwnValue() throws {
        #expect(try read(#"{ "k1" = v; k2; "k3"; }"#) == ["k1": "v", "k2": "k2", "k3": "k3"])
    }

    @Test func duplicateKeysKeepFirstPlaceAndLastValue() throws {
        let value = try read("{ a = 1; b = 2; a = 3; }")
        #expect(value.dictionaryValue?.keys.elements == ["a", "b"])
        #expect(value["a"] == "3")
    }

    @Test func topLevelScalars() throws {
        #expect(try read("hello") == "hello")
        #expect(try read(#"  "hello world"  "#) == "hello world")
        #expect(try read("<0fbd 7777>") == .data(Data([0x0F, 0xBD, 0x77, 0x77])))
        #expect(try read("<>") == .data(Data()))
    }

    @Test func stringsFiles() throws {
        #expect(try read("a = b;\n\"c\" = \"d\"; // comment\n e;") == ["a": "b", "c": "d", "e": "e"])
        #expect(try read("\"only\";") == ["only": "only"])
    }

    @Test func emptyInputsAreEmptyDictionaries() throws {
        #expect(try read("") == [:])
        #expect(try read(" \n\t ") == [:])
        #expect(try read("// nothing\n/* at all */") == [:])
        #expect(try OpenStepPropertyListReader().read(Data([0xEF, 0xBB, 0xBF])) == [:])
    }

    @Test func comments() throws {
        #expect(try read("/* a */ { /* b */ k /* c */ = /* d */ v /* e */ ; // f\n } // g") == ["k": "v"])
        // As in CF, `//` inside an unquoted string is part of it, not a comment.
        #expect(try read("( a//b, // comment\n c )") == ["a//b", "c"])
        #expect(try read("(a/b, /x)") == ["a/b", "/x"])
    }

    @Test func utf16WithBOM() throws {
        var bytes: [UInt8] = [0xFF, 0xFE]
        for unit in "{ k = \"é𝄞\"; }".utf16 { bytes += [UInt8(unit & 0xFF), UInt8(unit >> 8)] }
        #expect(try OpenStepPropertyListReader().read(Data(bytes)) == ["k": "é𝄞"])
    }

    // MARK: Escapes

    @Test func simpleEscapes() throws {
        #expect(try read(#""\a\b\f\n\r\t\v\"\\\'\q""#) == "\u{7}\u{8}\u{C}\n\r\t\u{B}\"\\'q")
        #expect(try read("\"line\\\nnext\"") == "line\nnext")
    }

    @Test func octalEscapes() throws {
        #expect(try read(#""\101\102C""#) == "ABC")
        #expect(try read(#""\0005""#) == "\u{0}5") // three digits at most
        #expect(try read(#""\7x""#) == "\u{7}x")
        #expect(try read(#""\341\373""#) == "Æß") // NeXTSTEP, not Latin-1
        #expect(try read(#""\501""#) == "A") // only the low 8 bits count, as in CF
    }

    @Test func unicodeEscapes() throws {
        #expect(try read(#""\U0041\U00e9\U41""#) == "Aé\u{41}")
        #expect(try read(#""\U12345""#) == "\u{1234}5") // four digits at most
        #expect(try read(#""\UD834\UDD1E""#) == "𝄞")
        #expect(try read(#""\u0041""#) == "u0041")
    }

    @Test func nonASCIIEscapedCharacterStandsForItself() throws {
        #expect(try read(#""\é\日""#) == "é日")
    }

    // MARK: GNUstep

    @Test func gnustepScalars() throws {
        let value = try read("(<*I-42>, <*I+7>, <*I18446744073709551615>, <*R1.5>, <*R-1e300>, <*BY>, <*BN>, <*D2001-01-01 00:00:00 +0000>, <*D2001-01-01 01:00:00.25 +0100>, <[AAEC]>, <[ AQ ]>)")
        #expect(value == [
            -42, 7, .integer(PropertyListInteger(UInt64.max)), 1.5, .real(-1e300), true, false,
            .date(Date(timeIntervalSinceReferenceDate: 0)), .date(Date(timeIntervalSinceReferenceDate: 0.25)),
            .data(Data([0, 1, 2])), .data(Data([1])),
        ])
    }

    @Test func uidFromTypedInteger() throws {
        #expect(try read("{ CF$UID = <*I5>; }") == .uid(PropertyListUID(5)))
        #expect(try read("{ CF$UID = 5; }") == ["CF$UID": "5"]) // untyped stays a dictionary
    }

    @Test(arguments: ["<*I>", "<*I1.5>", "<*I18446744073709551616>", "<*I-9223372036854775809>", "<*Rabc>", "<*R 1>",
                      "<*BX>", "<*BYES>", "<*D2001-13-01 00:00:00 +0000>", "<*D2001-02-29 00:00:00 +0000>",
                      "<*D2001-01-01T00:00:00Z>", "<*D999999999999-01-01 00:00:00 +0000>",
                      "<*D2001-01-01 00:00:00 +2400>", "<*D2001-01-01 24:00:00 +0000>", "<[!!]>"])
    func invalidGNUstepScalars(_ text: String) {
        let error = readError("(x, \(text))")
        #expect(error?.code == .invalidScalar)
        #expect(error?.location == .text(line: 1, column: 5))
    }

    @Test func unknownGNUstepTypeAndUnterminatedForms() {
        #expect(readError("<*X1>")?.code == .syntax)
        #expect(readError("<*I1")?.code == .syntax)
        #expect(readError("<[AAEC>")?.code == .syntax)
    }

    // MARK: Errors

    @Test func missingSemicolon() {
        let error = readError("{\n  a = b\n  c = d;\n}")
        #expect(error?.code == .syntax)
        #expect(error?.format == .openStep)
        #expect(error?.location == .text(line: 3, column: 3))
        #expect(error?.message.contains("expected ';'") == true)
    }

    @Test func missingFinalSemicolon() {
        #expect(readError("{ a = b }")?.location == .text(line: 1, column: 9))
    }

    @Test func errorsNameWhatWasExpected() {
        let cases: [(String, String, PropertyListError.Location)] = [
            ("{ a = b;", "expected '}'", .text(line: 1, column: 9)),
            ("( a b )", "expected ',' or ')'", .text(line: 1, column: 5)),
            ("( a, ", "expected ')'", .text(line: 1, column: 6)),
            ("{ a b; }", "expected '=' or ';'", .text(line: 1, column: 5)),
            ("{ = b; }", "expected a string key", .text(line: 1, column: 3)),
            ("{ a = ; }", "expected a value", .text(line: 1, column: 7)),
            ("(a) b", "expected the end of the input", .text(line: 1, column: 5)),
            ("\n  \"abc", "unterminated string", .text(line: 2, column: 3)),
            ("/* open", "unterminated /* comment", .text(line: 1, column: 1)),
            ("<0f 1>", "second hex digit", .text(line: 1, column: 6)),
            ("<0g>", "second hex digit", .text(line: 1, column: 3)),
            ("<g0>", "expected a hex digit or '>'", .text(line: 1, column: 2)),
            ("<0f", "expected '>'", .text(line: 1, column: 4)),
            ("\"\\U\"", "hex digits after \\U", .text(line: 1, column: 2)),
            ("a = b; }", "expected a string key", .text(line: 1, column: 8)),
            ("{ k = \u{7F}; }", "found byte 0x7F", .text(line: 1, column: 7)),
        ]
        probe.expectSyntaxErrors(cases)
    }

    @Test func columnsCountCharactersNotBytes() {
        #expect(readError("{ \"日本\" = 語 }")?.location == .text(line: 1, column: 12))
    }

    @Test func invalidEncodings() {
        for text in [#""\UD834""#, #""\UDD1E""#, #""\UD834\U0041""#, #""\376""#, #""\377""#, #""\777""#] {
            #expect(readError(text)?.code == .invalidEncoding, "\(text)")
        }
        let invalidUTF8 = Data([0x28, 0x22, 0xFF, 0x22, 0x29]) // ("\xFF")
        #expect(throws: PropertyListError(.invalidEncoding, format: .openStep, location: .text(line: 1, column: 3),
                                          "string is not valid UTF-8")) { try OpenStepPropertyListReader().read(invalidUTF8) }
        let unquoted = Data([0x28, 0xC3, 0x28, 0x29]) // (\xC3()
        #expect(throws: PropertyListError.self) { try OpenStepPropertyListReader().read(unquoted) }
    }

    // MARK: Limits

    @Test func depthLimit() throws {
        let limits = PropertyListLimits(maximumDepth: 4)
        #expect(try read("((((a))))", limits: limits) == [[[["a"]]]])
        let error = readError("(((((a)))))", limits: limits)
        #expect(error?.code == .depthLimitExceeded)
        #expect(error?.location == .text(line: 1, column: 5))
        #expect(readError("{a={b={c={d={e=f;};};};};}", limits: limits)?.code == .depthLimitExceeded)
    }

    @Test func defaultDepthLimitIs512() throws {
        let ok = String(repeating: "(", count: 512) + String(repeating: ")", count: 512)
        #expect(throws: Never.self) { try read(ok) }
        let deep = String(repeating: "(", count: 513) + String(repeating: ")", count: 513)
        #expect(readError(deep)?.code == .depthLimitExceeded)
    }

    @Test func hugeNestingFailsFast() {
        let hostile = String(repeating: "(", count: 100_000)
        #expect(readError(hostile)?.code == .depthLimitExceeded)
        #expect(readError(String(repeating: "{a=", count: 100_000))?.code == .depthLimitExceeded)
    }

    @Test func objectLimit() throws {
        let limits = PropertyListLimits(maximumObjectCount: 4)
        #expect(try read("(a, b, c)", limits: limits) == ["a", "b", "c"])
        #expect(readError("(a, b, c, d)", limits: limits)?.code == .objectLimitExceeded)
        #expect(readError("{a = b; c = d;}", limits: limits)?.code == .objectLimitExceeded) // keys count too
    }

    @Test func sizeLimit() {
        #expect(readError("(abc)", limits: PropertyListLimits(maximumInputSize: 4))?.code == .sizeLimitExceeded)
    }
}
