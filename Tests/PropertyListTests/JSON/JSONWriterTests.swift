import Foundation
import Testing
@testable import PropertyList

@Suite struct JSONWriterTests {
    func text(_ value: PropertyListValue, pretty: Bool = true) throws -> String {
        String(decoding: try JSONPropertyListWriter(prettyPrinted: pretty).write(value), as: UTF8.self)
    }

    @Test func prettyLayoutKeepsKeyOrder() throws {
        let value: PropertyListValue = ["z": 1, "a": ["x", 2.5, true], "m": [:], "e": [], "n": ["k": false]]
        #expect(try text(value) == """
            {
              "z": 1,
              "a": [
                "x",
                2.5,
                true
              ],
              "m": {},
              "e": [],
              "n": {
                "k": false
              }
            }
            """)
    }

    @Test func compactLayout() throws {
        let value: PropertyListValue = ["z": 1, "a": ["x", 2.5, true], "u": .uid(PropertyListUID(3))]
        #expect(try text(value, pretty: false) == #"{"z":1,"a":["x",2.5,true],"u":{"CF$UID":3}}"#)
    }

    @Test func scalars() throws {
        let value: PropertyListValue = [
            .integer(PropertyListInteger(UInt64.max)), .integer(PropertyListInteger(Int64.min)), 0, 1.0, 0.1, 1e300, -0.0, .real(.leastNonzeroMagnitude),
            .float(0.1), .date(Date(timeIntervalSinceReferenceDate: 0)), .date(Date(timeIntervalSinceReferenceDate: 0.5)),
            .date(Date(timeIntervalSinceReferenceDate: -978_307_200.25)), .data(Data([0, 1, 2, 0xFF])), .data(Data()),
            .uid(PropertyListUID(5)),
        ]
        #expect(try text(value, pretty: false) == """
            [18446744073709551615,-9223372036854775808,0,1.0,0.1,1e+300,-0.0,5e-324,0.10000000149011612,"2001-01-01T00:00:00Z","2001-01-01T00:00:00.5Z",\
            "1969-12-31T23:59:59.75Z","AAEC/w==","",{"CF$UID":5}]
            """)
    }

    @Test func stringEscapes() throws {
        #expect(try text("\"\\/\u{0}\u{8}\t\n\u{C}\r\u{1F}\u{7F}é𝄞\u{2028}") == #""\"\\/\u0000\b\t\n\f\r\u001F"# + "\u{7F}é𝄞\u{2028}\"")
    }

    @Test func nonFiniteRealsNameTheirKeyPath() {
        let cases: [(PropertyListValue, String)] = [
            (.real(.nan), ""), (["a": ["b": [1, .real(.infinity)]]], "a.b[1]"), ([["x": .float(-.infinity)]], "[0].x"),
            (["d": .date(Date(timeIntervalSinceReferenceDate: .infinity))], "d"),
        ]
        for (value, path) in cases {
            let error = #expect(throws: PropertyListError.self) { try JSONPropertyListWriter().write(value) }
            #expect(error?.code == .unsupportedValue)
            #expect(error?.format == .json)
            #expect(error?.location == .keyPath(path))
        }
    }

    @Test func depthLimit() throws {
        var value: PropertyListValue = [:]
        for index in 0..<3 { value = ["k\(index)": value] }
        #expect(throws: Never.self) { try JSONPropertyListWriter(maximumDepth: 4).write(value) }
        let error = #expect(throws: PropertyListError.self) { try JSONPropertyListWriter(maximumDepth: 3).write(value) }
        #expect(error?.code == .depthLimitExceeded)
        #expect(error?.location == .keyPath("k2.k1.k0"))
    }

    @Test func outputIsValidJSONForFoundation() throws {
        let value: PropertyListValue = ["text": "a\"b\u{1}", "list": [1, 2.5, false], "big": .integer(PropertyListInteger(Int64.max))]
        let data = try JSONPropertyListWriter().write(value)
        let parsed = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(parsed["text"] as? String == "a\"b\u{1}")
        #expect((parsed["list"] as? [Any])?.count == 3)
    }
}
