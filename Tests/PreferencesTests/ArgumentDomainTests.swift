import Foundation
import Preferences
import PropertyList
import Testing

/// `-key value` launch arguments, parsed as Foundation parses them.
@Suite struct ArgumentDomainTests {
    @Test func pairsBecomeStrings() {
        #expect(ArgumentDomain.values(from: ["-Name", "Ann", "-Count", "3"]) == ["Name": "Ann", "Count": "3"])
    }

    @Test func valuesThatLookLikePropertyListsAreParsed() {
        let values = ArgumentDomain.values(from: [
            "-Array", "(a, b)", "-Dict", "{ k = v; }", "-Data", "<0102>", "-Quoted", "\"x y\"", "-Broken", "(a,",
        ])
        #expect(values["Array"] == ["a", "b"])
        #expect(values["Dict"] == ["k": "v"])
        #expect(values["Data"] == .data(Data([1, 2])))
        #expect(values["Quoted"] == "x y")
        #expect(values["Broken"] == "(a,")
    }

    @Test func aKeyFollowedByAnotherOptionHasNoValue() {
        let values = ArgumentDomain.values(from: ["-Verbose", "-Level", "2", "-Dangling"])
        #expect(values == ["Level": "2"])
    }

    @Test func plainArgumentsAndALoneDashAreIgnored() {
        #expect(ArgumentDomain.values(from: ["App", "file.txt", "-", "x"]).isEmpty)
    }

    @Test func theLastPairWins() {
        #expect(ArgumentDomain.values(from: ["-A", "1", "-A", "2"]) == ["A": "2"])
    }

    @Test func argumentStringsReadThroughTheTypedAccessors() throws {
        let prefs = try PreferencesFixture().open(arguments: ["-Flag", "YES", "-Count", "42", "-Ratio", "0.5"])
        #expect(prefs.bool(forKey: "Flag"))
        #expect(prefs.integer(forKey: "Count") == 42)
        #expect(prefs.double(forKey: "Ratio") == 0.5)
    }
}
