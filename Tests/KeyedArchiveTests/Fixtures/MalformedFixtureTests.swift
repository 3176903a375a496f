import Foundation
import KeyedArchive
import Testing

/// The broken archives of the shared corpus (`malformed/`) each give the
/// typed error for what is wrong with them.
struct MalformedFixtureTests {
    static let expected: [(name: String, code: KeyedArchiveError.Code)] = [
        ("bpylist2_invalid_type_archive.plist", .wrongArchiver),
        ("bpylist2_invalid_uid_archive.plist", .invalidReference),
        ("bpylist2_invalid_version_archive.plist", .unsupportedVersion),
        ("bpylist2_missing_uid_archive.plist", .missingClass),
        ("bpylist2_no_class_meta_archive.plist", .invalidClass),
        ("bpylist2_no_class_name_archive.plist", .invalidClass),
        ("bpylist2_no_objects_archive.plist", .notAnArchive),
        ("bpylist2_no_root_archive.plist", .missingRoot),
        ("bpylist2_no_top_archive.plist", .notAnArchive),
    ]

    @Test(arguments: expected.map(\.name))
    func brokenArchiveGivesItsError(name: String) throws {
        let url = ArchiveFixtures.directory.deletingLastPathComponent().appendingPathComponent("malformed/\(name)")
        let data = try Data(contentsOf: url)
        let expected = Self.expected.first { $0.name == name }?.code
        let generic = #expect(throws: KeyedArchiveError.self) { _ = try KeyedUnarchiver(data: data).decodeRootGraph() }
        #expect(generic?.code == expected)
        let typed = #expect(throws: KeyedArchiveError.self) { _ = try KeyedUnarchiver.unarchive(PropertyListValueArray.self, from: data) }
        #expect(typed?.code == expected)
    }
}
