import Foundation
import Testing
@testable import PropertyList

/// Issue 14, findings 14 and 22: an error says what and where without
/// echoing unbounded input, and a file that is not a property list says
/// what it is.
@Suite struct ErrorMessageTests {
    @Test func aHugeIntegerIsQuotedShort() throws {
        let digits = String(repeating: "9", count: 100_000)
        let xml = Data(#"<?xml version="1.0"?><plist version="1.0"><integer>\#(digits)</integer></plist>"#.utf8)
        let error = #expect(throws: PropertyListError.self) { try PropertyListValue.decode(xml) }
        let text = error.map { "\($0)" } ?? ""
        #expect(text.count < 300)
        #expect(text.contains("(100000 characters)"))
        #expect(error?.code == .invalidScalar)
    }

    @Test func longKeysAndEntitiesAreQuotedShort() throws {
        let key = String(repeating: "k", count: 10_000)
        let json = Data("{\"\(key)\" 1}".utf8)
        let jsonError = #expect(throws: PropertyListError.self) { try PropertyListValue.decode(json, as: .json) }
        #expect("\(jsonError.map { "\($0)" } ?? "")".count < 300)
        let entity = String(repeating: "e", count: 10_000)
        let xml = Data(#"<?xml version="1.0"?><plist version="1.0"><string>&\#(entity);</string></plist>"#.utf8)
        let xmlError = #expect(throws: PropertyListError.self) { try PropertyListValue.decode(xml) }
        #expect("\(xmlError.map { "\($0)" } ?? "")".count < 300)
    }

    @Test func excerptsOfShortTextAreWhole() {
        #expect(InputExcerpt.quoted("abc") == "\"abc\"")
        let long = String(repeating: "a", count: 65)
        #expect(InputExcerpt.quoted(long) == "\"\(String(repeating: "a", count: 64))…\" (65 characters)")
    }

    @Test func aNIBArchiveIsNamedNotMisreadAsOpenStep() throws {
        let nib = Data("NIBArchive".utf8) + Data([1, 0, 0, 0, 9, 0, 0, 0])
        #expect(ForeignFormat.detect(nib) == .nibArchive)
        let error = #expect(throws: PropertyListError.self) { try PropertyListValue.decode(nib) }
        #expect(error?.code == .unrecognizedFormat)
        #expect("\(error.map { "\($0)" } ?? "")".contains("NIBArchive"))
    }
}
