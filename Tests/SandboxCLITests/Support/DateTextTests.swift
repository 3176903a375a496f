import Foundation
import Testing
@testable import SandboxCLI

@Suite struct DateTextTests {
    @Test func formatsKnownDates() {
        let date = Date(timeIntervalSince1970: 1_098_786_813) // cpython's test date
        #expect(DateText.iso8601(date) == "2004-10-26T10:33:33Z")
        #expect(DateText.readable(date) == "2004-10-26 10:33:33 +0000")
        #expect(DateText.iso8601(Date(timeIntervalSinceReferenceDate: 0)) == "2001-01-01T00:00:00Z")
    }

    @Test func roundsDownToTheSecondBeforeTheEpochToo() {
        #expect(DateText.iso8601(Date(timeIntervalSince1970: -0.5)) == "1969-12-31T23:59:59Z")
        #expect(DateText.iso8601(Date(timeIntervalSince1970: 59.999)) == "1970-01-01T00:00:59Z")
    }

    @Test func usesTheProlepticGregorianCalendar() {
        // CF and plistlib agree on this value (formats.md §6 #11).
        #expect(DateText.iso8601(Date(timeIntervalSince1970: -62_135_596_800)) == "0001-01-01T00:00:00Z")
        #expect(DateText.parseISO8601("1582-10-04T00:00:00Z") == Date(timeIntervalSince1970: -12_220_243_200))
        #expect(DateText.iso8601(Date(timeIntervalSince1970: -62_198_755_200)) == "-0001-01-01T00:00:00Z")
    }

    @Test func unrepresentableDatesGiveNoText() {
        for interval in [Double.nan, .infinity, -.infinity, 1e300] {
            #expect(DateText.iso8601(Date(timeIntervalSinceReferenceDate: interval)) == nil)
            #expect(DateText.readable(Date(timeIntervalSinceReferenceDate: interval)).hasPrefix("<date "))
        }
    }

    @Test func parsesWhatItFormats() throws {
        for seconds in stride(from: -70_000_000_000.0, through: 70_000_000_000, by: 987_654_321) {
            let date = Date(timeIntervalSince1970: seconds)
            let text = try #require(DateText.iso8601(date))
            #expect(DateText.parseISO8601(text) == date, "\(text)")
        }
    }

    @Test func parsesFractionsAndLeapDays() {
        #expect(DateText.parseISO8601("2020-02-29T12:00:00.25Z") == Date(timeIntervalSince1970: 1_582_977_600.25))
        #expect(DateText.parseISO8601("2000-02-29T00:00:00Z") != nil)
    }

    @Test(arguments: [
        "", "2024-01-01", "2024-01-01T00:00:00", "2024-01-01T00:00:00+01:00", "2024-13-01T00:00:00Z",
        "2024-00-10T00:00:00Z", "2023-02-29T00:00:00Z", "1900-02-29T00:00:00Z", "2024-04-31T00:00:00Z",
        "2024-01-01T24:00:00Z", "2024-01-01T00:60:00Z", "2024-01-01T00:00:60Z", "24-01-01T00:00:00Z",
        "2024-1-01T00:00:00Z", "2024-01-01T00:00:00.Z", "2024-01-01T00:00:00ZZ", "2024-01-01 00:00:00Z",
    ])
    func rejectsMalformedDates(_ text: String) {
        #expect(DateText.parseISO8601(text) == nil)
    }

    @Test func civilDayArithmeticIsConsistent() {
        for days in stride(from: Int64(-1_000_000), through: 1_000_000, by: 997) {
            let (year, month, day) = DateText.civil(fromDays: days)
            #expect(DateText.days(fromCivilYear: year, month: month, day: day) == days)
        }
    }
}
