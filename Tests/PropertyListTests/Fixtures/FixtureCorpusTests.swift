import Foundation
import Testing
@testable import PropertyList

/// Every file of `../shared/fixtures/plist/` behaves as its folder says
/// (see that folder's MANIFEST.tsv).
@Suite struct FixtureCorpusTests {
    /// XML edge cases from go-plist and libplist that are not well-formed
    /// XML, with the error each must give.
    static let malformedXML: [String: PropertyListError.Code] = [
        "goplist_xml_unusual_s05.plist": .syntax,  // `<!test>` inside a key
        "goplist_xml_unusual_s06.plist": .syntax,  // `&amp` without `;`
        "goplist_xml_unusual_s07.plist": .syntax,  // unterminated attribute value
        "goplist_xml_unusual_s08.plist": .syntax,  // text after the root element
        "goplist_xml_unusual_s09.plist": .syntax,  // unterminated DOCTYPE string
        "goplist_xml_unusual_s10.plist": .syntax,  // attribute without a name
        "libplist_amp.plist": .syntax,             // `&amp` without `;`
    ]

    /// Files in `malformed/` that are well-formed property lists but broken
    /// keyed archives; the keyed-archive layer rejects them.
    static let validPlistsButBrokenArchives: Set<String> = [
        "bpylist2_invalid_type_archive.plist", "bpylist2_invalid_uid_archive.plist",
        "bpylist2_invalid_version_archive.plist", "bpylist2_missing_uid_archive.plist",
        "bpylist2_no_class_meta_archive.plist", "bpylist2_no_class_name_archive.plist",
        "bpylist2_no_objects_archive.plist", "bpylist2_no_root_archive.plist",
        "bpylist2_no_top_archive.plist",
    ]

    static func names(_ folder: String) -> [String] {
        SharedFixtures.files(in: folder).map(\.lastPathComponent)
    }

    @Test func corpusIsPresent() {
        #expect(Self.names("bplist").count == 33)
        #expect(Self.names("xml").count == 45)
        #expect(Self.names("openstep").count == 19)
        #expect(Self.names("keyed_archive").count == 67)
        #expect(Self.names("malformed").count == 103)
    }

    @Test(arguments: names("bplist"))
    func binaryFileDecodes(_ name: String) throws {
        let (_, format) = try PropertyListValue.decode(SharedFixtures.data("bplist/\(name)"))
        #expect(format == .binary)
    }

    @Test(arguments: names("keyed_archive"))
    func keyedArchiveDecodesAsPropertyList(_ name: String) throws {
        let value = try PropertyListValue(data: SharedFixtures.data("keyed_archive/\(name)"))
        #expect(value["$objects"]?.arrayValue != nil || value["$top"] != nil, "\(name) has no archive keys")
    }

    @Test(arguments: names("xml"))
    func xmlFileDecodesOrIsRejectedAsDocumented(_ name: String) throws {
        let data = try SharedFixtures.data("xml/\(name)")
        if let code = Self.malformedXML[name] {
            let error = #expect(throws: PropertyListError.self) { try PropertyListValue(data: data) }
            #expect(error?.code == code)
            #expect(error?.format == .xml)
            guard case .text = error?.location else {
                Issue.record("\(name): error has no line and column")
                return
            }
        } else {
            let (_, format) = try PropertyListValue.decode(data)
            #expect(format == .xml)
        }
    }

    @Test(arguments: names("openstep"))
    func openStepFileDecodes(_ name: String) throws {
        let (_, format) = try PropertyListValue.decode(SharedFixtures.data("openstep/\(name)"))
        #expect(format == .openStep)
    }

    @Test(arguments: names("malformed"))
    func malformedFileGivesTypedError(_ name: String) throws {
        let data = try SharedFixtures.data("malformed/\(name)")
        if Self.validPlistsButBrokenArchives.contains(name) {
            _ = try PropertyListValue(data: data)
            return
        }
        let error = #expect(throws: PropertyListError.self) { try PropertyListValue(data: data) }
        #expect(error?.location != nil, "\(name): error does not say where")
        #expect(!(error?.message.isEmpty ?? true))
    }

    @Test func utf16And32XMLVariantsAllDecodeToOneValue() throws {
        let variants = ["utf-16be", "utf-16be-bom", "utf-16le", "utf-16le-bom", "utf-32be", "utf-32be-bom", "utf-32le", "utf-32le-bom"]
        let values = try variants.map { try PropertyListValue(data: SharedFixtures.data("xml/ddplist_test-xml-\($0).plist")) }
        for (variant, value) in zip(variants, values) {
            #expect(value == values[0], "\(variant)")
        }
        #expect(values[0].dictionaryValue?.isEmpty == false)
    }

    @Test func binaryAndXMLTwinsAgree() throws {
        let pairs = [
            ("bplist/libplist_signed.bplist", "xml/libplist_signed.plist"),
            ("bplist/libplist_unsigned.bplist", "xml/libplist_unsigned.plist"),
            ("bplist/libplist_signedunsigned.bplist", "xml/libplist_signedunsigned.plist"),
            ("bplist/ddplist_infinity-binary.plist", "xml/ddplist_infinity-xml.plist"),
            ("bplist/ddplist_testNegative-bin.plist", "xml/ddplist_testNegative-xml.plist"),
            ("bplist/ddplist_issue22-emoji.plist", "xml/ddplist_issue22-emoji-xml.plist"),
        ]
        for (binary, xml) in pairs {
            let fromBinary = try PropertyListValue(data: SharedFixtures.data(binary))
            let fromXML = try PropertyListValue(data: SharedFixtures.data(xml))
            #expect(fromBinary.sortingKeys() == fromXML.sortingKeys(), "\(binary) vs \(xml)")
        }
    }
}
