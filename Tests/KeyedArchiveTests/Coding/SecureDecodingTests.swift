import Foundation
import KeyedArchive
import PropertyList
import Testing

/// Secure decoding: the caller lists the allowed types; anything else is an error.
struct SecureDecodingTests {
    let created = Date(timeIntervalSinceReferenceDate: 0)

    @Test func allowedTypesDecode() throws {
        let data = try KeyedArchiver.archivedData(withRootObject: [Possession(possessionName: "p", serialNumber: nil, dateCreated: created, imageKey: nil, valueInDollars: 1)])
        let back = try KeyedUnarchiver.unarchive([Possession].self, from: data, allowedTypes: [[Possession].self, Possession.self, Date.self])
        #expect(back.count == 1)
    }

    @Test func aClassNotListedIsAnErrorNotACrash() throws {
        let data = try KeyedArchiver.archivedData(withRootObject: [Possession(possessionName: "p", serialNumber: nil, dateCreated: created, imageKey: nil, valueInDollars: 1)])
        let error = #expect(throws: KeyedArchiveError.self) {
            _ = try KeyedUnarchiver.unarchive([Possession].self, from: data, allowedTypes: [[Possession].self, Possession.self])
        }
        #expect(error?.code == .disallowedClass)
        #expect(error?.message.contains("NSDate") == true)
    }

    @Test func genericReadingIsCheckedToo() throws {
        let data = try ArchiveFixtures.data("mw_nska_note.plist")
        let unarchiver = try KeyedUnarchiver(data: data)
        unarchiver.requireSecureDecoding(allowingClassNames: ["NSArray"])
        let error = #expect(throws: KeyedArchiveError.self) { _ = try unarchiver.decodeRootGraph() }
        #expect(error?.code == .disallowedClass)
        let allowed = try KeyedUnarchiver(data: data)
        allowed.requireSecureDecoding(allowingClassNames: ["NSArray", "Note"])
        #expect(try allowed.decodeRootGraph().object?.className == "Note")
    }

    @Test func plainStringsNeedNoClass() throws {
        let data = try KeyedArchiver.archivedData(withRootObject: "plain")
        #expect(try KeyedUnarchiver.unarchive(String.self, from: data, allowedTypes: []) == "plain")
    }
}
