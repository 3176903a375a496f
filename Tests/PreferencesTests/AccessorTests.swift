import Foundation
import Preferences
import PropertyList
import Testing

/// Typed reads with Foundation's conversions, typed writes, and Codable values.
@Suite struct AccessorTests {
    @Test(arguments: [
        (PropertyListValue.bool(true), true), (.integer(1), true), (.integer(0), false), (.real(2.5), true),
        (.string("YES"), true), (.string("yes"), true), (.string("true"), true), (.string("1"), true),
        (.string("  +007"), true), (.string("NO"), false), (.string("0"), false), (.string("false"), false),
        (.string(""), false), (.data(Data([1])), false),
    ])
    func boolConvertsAsFoundationDoes(value: PropertyListValue, expected: Bool) throws {
        let prefs = try PreferencesFixture().open()
        prefs.set(value, forKey: "k")
        #expect(prefs.bool(forKey: "k") == expected)
    }

    @Test func integerConvertsNumbersBooleansAndStrings() throws {
        let prefs = try PreferencesFixture().open()
        let cases: [(PropertyListValue, Int)] = [
            (.integer(-5), -5), (.real(3.9), 3), (.real(-3.9), -3), (.bool(true), 1), (.string(" 42abc"), 42),
            (.string("-17"), -17), (.string("abc"), 0), (.string("99999999999999999999999"), Int.max),
            (.real(.nan), 0), (.real(1e300), Int.max),
        ]
        for (value, expected) in cases {
            prefs.set(value, forKey: "k")
            #expect(prefs.integer(forKey: "k") == expected, "\(value)")
        }
        #expect(prefs.integer(forKey: "missing") == 0)
    }

    @Test func doubleConvertsNumbersBooleansAndStrings() throws {
        let prefs = try PreferencesFixture().open()
        let cases: [(PropertyListValue, Double)] = [
            (.real(1.5), 1.5), (.integer(7), 7), (.bool(true), 1), (.string("2.5e3x"), 2500),
            (.string(" -.5"), -0.5), (.string("1e"), 1), (.string("x"), 0),
        ]
        for (value, expected) in cases {
            prefs.set(value, forKey: "k")
            #expect(prefs.double(forKey: "k") == expected, "\(value)")
        }
        prefs.set(Float(0.25), forKey: "f")
        #expect(prefs.float(forKey: "f") == 0.25)
    }

    @Test func stringReadsNumbersAsTheirText() throws {
        let prefs = try PreferencesFixture().open()
        prefs.set(12, forKey: "i")
        prefs.set(3.0, forKey: "whole")
        prefs.set(0.5, forKey: "half")
        prefs.set(true, forKey: "b")
        prefs.set(Data([1]), forKey: "d")
        #expect(prefs.string(forKey: "i") == "12")
        #expect(prefs.string(forKey: "whole") == "3")
        #expect(prefs.string(forKey: "half") == "0.5")
        #expect(prefs.string(forKey: "b") == "1")
        #expect(prefs.string(forKey: "d") == nil)
    }

    @Test func collectionsDatesAndData() throws {
        let prefs = try PreferencesFixture().open()
        let date = Date(timeIntervalSinceReferenceDate: 700_000_000)
        prefs.set(date, forKey: "date")
        prefs.set(Data([1, 2, 3]), forKey: "data")
        prefs.set(["a", "b"], forKey: "strings")
        prefs.set([PropertyListValue.string("a"), .integer(1)], forKey: "mixed")
        prefs.set(["k": PropertyListValue.bool(true)], forKey: "dict")
        #expect(prefs.date(forKey: "date") == date)
        #expect(prefs.data(forKey: "data") == Data([1, 2, 3]))
        #expect(prefs.stringArray(forKey: "strings") == ["a", "b"])
        #expect(prefs.stringArray(forKey: "mixed") == nil)
        #expect(prefs.array(forKey: "mixed")?.count == 2)
        #expect(prefs.dictionary(forKey: "dict") == ["k": .bool(true)])
        #expect(prefs.date(forKey: "data") == nil)
        #expect(prefs.dictionary(forKey: "strings") == nil)
    }

    @Test func fileURLsAreStoredAsPathsRelativeToHome() throws {
        let fixture = try PreferencesFixture()
        let prefs = try fixture.open()
        let inside = fixture.directory.url.appendingPathComponent("Documents/notes.txt")
        prefs.set(inside, forKey: "inside")
        prefs.set(URL(fileURLWithPath: "/etc/hosts"), forKey: "outside")
        #expect(prefs.object(forKey: "inside") == "~/Documents/notes.txt")
        #expect(prefs.object(forKey: "outside") == "/etc/hosts")
        #expect(prefs.url(forKey: "inside")?.path == inside.standardizedFileURL.path)
        #expect(prefs.url(forKey: "outside") == URL(fileURLWithPath: "/etc/hosts"))
    }

    @Test func otherURLsAreArchivedNSURLs() throws {
        let prefs = try PreferencesFixture().open()
        let url = try #require(URL(string: "https://example.com/a?b=c"))
        prefs.set(url, forKey: "web")
        let archive = try #require(prefs.data(forKey: "web"))
        #expect(archive.starts(with: Array("bplist00".utf8)))
        #expect(prefs.url(forKey: "web") == url)
    }

    struct Profile: Codable, Equatable {
        var name: String
        var age: Int
        var tags: [String]
    }

    @Test func codableValuesRoundTrip() throws {
        let fixture = try PreferencesFixture()
        let prefs = try fixture.open()
        let profile = Profile(name: "Ann", age: 33, tags: ["x"])
        try prefs.set(encoding: profile, forKey: "profile")
        try prefs.synchronize()
        #expect(try fixture.open().decode(Profile.self, forKey: "profile") == profile)
        #expect(try prefs.decode(Profile.self, forKey: "missing") == nil)
    }

    @Test func aValueThatNoLongerDecodesIsATypedError() throws {
        let prefs = try PreferencesFixture().open()
        prefs.set("not a profile", forKey: "profile")
        #expect { try prefs.decode(Profile.self, forKey: "profile") } throws: { error in
            (error as? PreferencesError)?.code == .invalidValue
        }
    }
}
