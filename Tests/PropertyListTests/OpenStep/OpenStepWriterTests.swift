import Foundation
import Testing
@testable import PropertyList

@Suite struct OpenStepWriterTests {
    func text(_ value: PropertyListValue, typed: Bool = false) throws -> String {
        String(decoding: try OpenStepPropertyListWriter(typedScalars: typed).write(value), as: UTF8.self)
    }

    /// A value with every kind of scalar, nested.
    static let sample: PropertyListValue = [
        "name": "Possessions", "empty": "", "quote": "say \"hi\"\\", "controls": "\u{0}\u{7}\u{8}\t\n\u{B}\u{C}\r\u{1B}",
        "unicode": "café ☕︎ 𝄞 日本", "comment-like": "a//b", "path": "/usr/bin", "comment-start": "/*x",
        "count": 42, "negative": -5, "big": .integer(PropertyListInteger(UInt64.max)), "min": .integer(PropertyListInteger(Int64.min)),
        "pi": 3.25, "tiny": 1e-300, "whole": 2.0, "huge": 1e300, "negativeZero": .real(-0.0), "infinity": .real(.infinity),
        "single": .float(0.1), "yes": true, "no": false,
        "date": .date(Date(timeIntervalSinceReferenceDate: 0)), "fractional": .date(Date(timeIntervalSinceReferenceDate: 12345.678)),
        "old": .date(Date(timeIntervalSinceReferenceDate: -63_000_000_000.5)),
        "blob": .data(Data([0x0F, 0xBD, 0x77, 0x77])), "noBytes": .data(Data()),
        "list": [1, "x", [], [:], ["k": .uid(PropertyListUID(7))]], "uid": .uid(PropertyListUID(UInt64(UInt32.max) + 1)),
    ]

    @Test func layout() throws {
        let value: PropertyListValue = ["a": "b", "list": ["x", "y z"], "nested": ["k": .data(Data([1, 0xAB]))], "e": [], "f": [:]]
        #expect(try text(value) == """
            {
            \ta = b;
            \tlist = (
            \t\tx,
            \t\t"y z"
            \t);
            \tnested = {
            \t\tk = <01ab>;
            \t};
            \te = ();
            \tf = {};
            }

            """)
    }

    @Test func quotingOnlyWhenNeeded() throws {
        #expect(try text(["ok_$/:.-09AZaz"]) == "(\n\tok_$/:.-09AZaz\n)\n")
        for string in ["", "a b", "a//b", "/*", "é", "a+b", "a;", "x=y"] {
            #expect(try text(.string(string)).hasPrefix("\""), "\(string)")
        }
    }

    @Test func escapes() throws {
        #expect(try text("\"\\\u{7}\u{8}\t\n\u{B}\u{C}\r\u{1}\u{1F}é") == "\"\\\"\\\\\\a\\b\\t\\n\\v\\f\\r\\U0001\\U001Fé\"\n")
    }

    @Test func lossyScalars() throws {
        let value: PropertyListValue = [1, -2.5, true, false, .date(Date(timeIntervalSinceReferenceDate: 0)), .uid(PropertyListUID(5)), 1e300]
        #expect(try text(value) == "(\n\t1,\n\t-2.5,\n\tYES,\n\tNO,\n\t\"2001-01-01 00:00:00 +0000\",\n\t{ CF$UID = 5; },\n\t\"1e+300\"\n)\n")
        // Read back, every scalar is a string.
        let back = try OpenStepPropertyListReader().read(try OpenStepPropertyListWriter().write(value))
        #expect(back == ["1", "-2.5", "YES", "NO", "2001-01-01 00:00:00 +0000", ["CF$UID": "5"], "1e+300"])
    }

    @Test func typedScalars() throws {
        let value: PropertyListValue = [1, -2.5, true, false, .date(Date(timeIntervalSinceReferenceDate: 0.5)), .uid(PropertyListUID(5))]
        #expect(try text(value, typed: true)
            == "(\n\t<*I1>,\n\t<*R-2.5>,\n\t<*BY>,\n\t<*BN>,\n\t<*D2001-01-01 00:00:00.5 +0000>,\n\t{ CF$UID = <*I5>; }\n)\n")
    }

    @Test func typedRoundTripIsLossless() throws {
        let data = try OpenStepPropertyListWriter(typedScalars: true).write(Self.sample)
        var expected = Self.sample
        // Single-precision reals come back as the double they widen to.
        expected = .dictionary(expected.dictionaryValue!.mapValues { $0 == .float(0.1) ? .real(Double(Float(0.1))) : $0 })
        #expect(try OpenStepPropertyListReader().read(data) == expected)
    }

    @Test func realsRoundTripExactly() throws {
        let reals: [Double] = [0.1, 1.0 / 3, .pi, .leastNonzeroMagnitude, .greatestFiniteMagnitude, -1.7976931348623157e308, 123456789.125]
        let data = try OpenStepPropertyListWriter(typedScalars: true).write(.array(reals.map { .real($0) }))
        #expect(try OpenStepPropertyListReader().read(data) == .array(reals.map { .real($0) }))
    }

    @Test func datesRoundTripExactly() throws {
        let intervals: [Double] = [0, -0.5, 1e-3, 12345.678, 700_000_000.123456, -63_113_904_000, -63_177_062_400.75, 252_423_993_599.5, -978_307_200.25]
        let value = PropertyListValue.array(intervals.map { .date(Date(timeIntervalSinceReferenceDate: $0)) })
        let data = try OpenStepPropertyListWriter(typedScalars: true).write(value)
        #expect(try OpenStepPropertyListReader().read(data) == value)
    }

    @Test func dateText() throws {
        let cases: [(Double, String)] = [
            (0, "2001-01-01 00:00:00 +0000"), (-978_307_200, "1970-01-01 00:00:00 +0000"),
            (-0.5, "2000-12-31 23:59:59.5 +0000"), (-63_113_904_000, "0001-01-01 00:00:00 +0000"),
            (-63_145_526_400, "0000-01-01 00:00:00 +0000"), (-63_177_062_400, "-0001-01-01 00:00:00 +0000"),
            (951_782_400, "2031-03-01 00:00:00 +0000"), (951_696_000, "2031-02-28 00:00:00 +0000"),
            (-26_524_800, "2000-02-29 00:00:00 +0000"), (12_596_256_000, "2400-02-29 00:00:00 +0000"),
            (252_423_993_599, "9999-12-31 23:59:59 +0000"),
        ]
        for (interval, expected) in cases {
            #expect(try text(.date(Date(timeIntervalSinceReferenceDate: interval))) == "\"\(expected)\"\n", "\(interval)")
        }
        // Years beyond 9999 are outside every format's date range.
        #expect(throws: PropertyListError.self) { try text(.date(Date(timeIntervalSinceReferenceDate: 252_423_993_600))) }
    }

    @Test func unwritableDatesNameTheirKeyPath() {
        let value: PropertyListValue = ["items": [1, ["when": .date(Date(timeIntervalSinceReferenceDate: .nan))]]]
        #expect(throws: PropertyListError(.unsupportedValue, format: .openStep, location: .keyPath("items[1].when"),
                                          "date nan s from 2001 cannot be written as text")) {
            try OpenStepPropertyListWriter().write(value)
        }
    }

    @Test func depthLimit() throws {
        var value: PropertyListValue = "leaf"
        for _ in 0..<4 { value = [value] }
        #expect(throws: Never.self) { try OpenStepPropertyListWriter(maximumDepth: 4).write(value) }
        let error = #expect(throws: PropertyListError.self) { try OpenStepPropertyListWriter(maximumDepth: 3).write(value) }
        #expect(error?.code == .depthLimitExceeded)
        #expect(error?.location == .keyPath("[0][0][0]"))
    }

    @Test func stringsFileRoundTrip() throws {
        let strings = try OpenStepPropertyListReader().read(try OpenStepFixtures.data("libplist_test.strings"))
        #expect(try OpenStepPropertyListReader().read(try OpenStepPropertyListWriter().write(strings)) == strings)
    }

    @Test(arguments: OpenStepFixtures.names)
    func fixturesRoundTrip(_ name: String) throws {
        let value = try OpenStepPropertyListReader().read(try OpenStepFixtures.data(name))
        let written = try OpenStepPropertyListWriter(typedScalars: true).write(value)
        #expect(try OpenStepPropertyListReader().read(written) == value)
    }
}
