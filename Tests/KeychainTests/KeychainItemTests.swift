import Foundation
import Keychain
import Testing

/// Add, query, update and delete, with iOS's error meanings.
@Suite struct KeychainItemTests {
    @Test func addThenQueryReturnsAttributesAndData() throws {
        let fixture = try KeychainFixture()
        let mail = fixture.keychain.client(for: Apps.mail)
        let added = try mail.add(.genericPassword, KeychainAttributes(service: "imap", account: "ann", label: "Mail"),
                                 data: Data(utf8: "hunter2"))
        #expect(added.attributes.accessGroup == "TEAM1.shared")
        #expect(added.attributes.accessibility == .whenUnlocked)
        #expect(added.creationDate == fixture.clock.now)

        let found = try mail.item(.password(service: "imap", account: "ann"))
        #expect(found.data == Data(utf8: "hunter2"))
        #expect(found.attributes.label == "Mail")
        #expect(found.attributes.service == "imap")
        #expect(found.modificationDate == found.creationDate)
    }

    @Test func queryReturnsOnlyWhatIsAskedFor() throws {
        let fixture = try KeychainFixture()
        let mail = fixture.keychain.client(for: Apps.mail)
        try mail.add(.genericPassword, KeychainAttributes(service: "s", account: "a"), data: Data(utf8: "x"))

        let dataOnly = try mail.item(.password(service: "s", returning: .data))
        #expect(dataOnly.data == Data(utf8: "x"))
        #expect(dataOnly.attributes == KeychainAttributes())
        #expect(dataOnly.creationDate == nil)

        let attributesOnly = try mail.item(.password(service: "s", returning: .attributes))
        #expect(attributesOnly.data == nil)
        #expect(attributesOnly.attributes.account == "a")
    }

    @Test func matchLimitOneGivesTheFirstAddedAndAllGivesEvery() throws {
        let fixture = try KeychainFixture()
        let mail = fixture.keychain.client(for: Apps.mail)
        for account in ["first", "second", "third"] {
            try mail.add(.genericPassword, KeychainAttributes(service: "s", account: account), data: Data(utf8: account))
        }
        #expect(try mail.query(.password(service: "s")).map(\.attributes.account) == ["first"])
        #expect(try mail.query(.password(service: "s", limit: .all)).map(\.data) ==
                ["first", "second", "third"].map { Data(utf8: $0) })
    }

    @Test func duplicateIdentityIsRefused() throws {
        let fixture = try KeychainFixture()
        let mail = fixture.keychain.client(for: Apps.mail)
        try mail.add(.genericPassword, KeychainAttributes(service: "s", account: "a"), data: Data(utf8: "1"))
        let error = expectKeychainError(.duplicateItem) {
            try mail.add(.genericPassword, KeychainAttributes(service: "s", account: "a", label: "other"), data: Data())
        }
        #expect(error?.operation == .add)
        #expect(error?.code.osStatus == -25299)
        // A missing account is the empty account, as on iOS.
        try mail.add(.genericPassword, KeychainAttributes(service: "s"), data: Data())
        expectKeychainError(.duplicateItem) {
            try mail.add(.genericPassword, KeychainAttributes(service: "s", account: ""), data: Data())
        }
        // Another class or another group is another identity.
        try mail.add(.internetPassword, KeychainAttributes(account: "a"), data: Data())
        try mail.add(.genericPassword, KeychainAttributes(service: "s", account: "a", accessGroup: "TEAM1.com.example.mail"),
                     data: Data())
    }

    @Test func missingItemsAreNotFound() throws {
        let fixture = try KeychainFixture()
        let mail = fixture.keychain.client(for: Apps.mail)
        let error = expectKeychainError(.itemNotFound) { try mail.query(.password(service: "nothing")) }
        #expect(error?.code.osStatus == -25300)
        expectKeychainError(.itemNotFound) { try mail.delete(.password(service: "nothing")) }
        expectKeychainError(.itemNotFound) {
            try mail.update(.password(service: "nothing"), with: KeychainUpdate(data: Data()))
        }
    }

    @Test func updateChangesDataAndModificationDateOnly() throws {
        let fixture = try KeychainFixture()
        let mail = fixture.keychain.client(for: Apps.mail)
        let added = try mail.add(.genericPassword, KeychainAttributes(service: "s", account: "a", label: "L"),
                                 data: Data(utf8: "old"))
        fixture.clock.advance(by: 60)
        #expect(try mail.update(.password(service: "s"), with: KeychainUpdate(data: Data(utf8: "new"))) == 1)
        let found = try mail.item(.password(service: "s"))
        #expect(found.data == Data(utf8: "new"))
        #expect(found.attributes.label == "L")
        #expect(found.creationDate == added.creationDate)
        #expect(found.modificationDate == fixture.clock.now)
    }

    @Test func updateChangesEveryMatchAndCanMoveAnItem() throws {
        let fixture = try KeychainFixture()
        let mail = fixture.keychain.client(for: Apps.mail)
        try mail.add(.genericPassword, KeychainAttributes(service: "s", account: "a"), data: Data(utf8: "1"))
        try mail.add(.genericPassword, KeychainAttributes(service: "s", account: "b"), data: Data(utf8: "2"))
        #expect(try mail.update(.password(service: "s"), with: KeychainUpdate(attributes: .init(label: "both"))) == 2)
        #expect(try mail.query(.password(service: "s", limit: .all)).allSatisfy { $0.attributes.label == "both" })

        try mail.update(.password(service: "s", account: "b"), with: KeychainUpdate(attributes: .init(service: "t")))
        #expect(try mail.item(.password(service: "t")).data == Data(utf8: "2"))
    }

    @Test func updateThatCollidesChangesNothing() throws {
        let fixture = try KeychainFixture()
        let mail = fixture.keychain.client(for: Apps.mail)
        try mail.add(.genericPassword, KeychainAttributes(service: "s", account: "a"), data: Data(utf8: "1"))
        try mail.add(.genericPassword, KeychainAttributes(service: "s", account: "b"), data: Data(utf8: "2"))
        expectKeychainError(.duplicateItem) {
            try mail.update(.password(service: "s", account: "b"),
                            with: KeychainUpdate(attributes: .init(account: "a"), data: Data(utf8: "3")))
        }
        #expect(try mail.item(.password(service: "s", account: "b")).data == Data(utf8: "2"))
    }

    @Test func emptyUpdateIsAParameterError() throws {
        let fixture = try KeychainFixture()
        let mail = fixture.keychain.client(for: Apps.mail)
        try mail.add(.genericPassword, KeychainAttributes(service: "s"), data: Data())
        let error = expectKeychainError(.invalidParameter) {
            try mail.update(.password(service: "s"), with: KeychainUpdate())
        }
        #expect(error?.code.osStatus == -50)
    }

    @Test func changingAccessibilityResealsTheData() throws {
        let fixture = try KeychainFixture()
        let mail = fixture.keychain.client(for: Apps.mail)
        try mail.add(.genericPassword, KeychainAttributes(service: "s"), data: Data(utf8: "kept"))
        try mail.update(.password(service: "s"), with: KeychainUpdate(attributes: .init(accessibility: .always)))
        let found = try mail.item(.password(service: "s"))
        #expect(found.attributes.accessibility == .always)
        #expect(found.data == Data(utf8: "kept"))
    }

    @Test func deleteRemovesEveryMatch() throws {
        let fixture = try KeychainFixture()
        let mail = fixture.keychain.client(for: Apps.mail)
        try mail.add(.genericPassword, KeychainAttributes(service: "s", account: "a"), data: Data())
        try mail.add(.genericPassword, KeychainAttributes(service: "s", account: "b"), data: Data())
        try mail.add(.genericPassword, KeychainAttributes(service: "other"), data: Data())
        #expect(try mail.delete(.password(service: "s")) == 2)
        expectKeychainError(.itemNotFound) { try mail.query(.password(service: "s")) }
        #expect(try mail.query(.password(service: "other")).count == 1)
    }

    @Test func internetPasswordsAreIdentifiedByServerProtocolPortPathAndAccount() throws {
        let fixture = try KeychainFixture()
        let mail = fixture.keychain.client(for: Apps.mail)
        let site = KeychainAttributes(account: "ann", server: "example.com", protocol: .https, port: 443, path: "/login")
        try mail.add(.internetPassword, site, data: Data(utf8: "pw"))
        expectKeychainError(.duplicateItem) { try mail.add(.internetPassword, site, data: Data()) }
        var otherPort = site
        otherPort.port = 8443
        try mail.add(.internetPassword, otherPort, data: Data(utf8: "pw2"))

        let found = try mail.item(KeychainQuery(.internetPassword, KeychainAttributes(server: "example.com", port: 8443),
                                                returning: .all))
        #expect(found.data == Data(utf8: "pw2"))
        #expect(found.attributes.protocol == .https)
        #expect(found.attributes.path == "/login")
    }

    @Test func keysAreIdentifiedByTagAndLabel() throws {
        let fixture = try KeychainFixture()
        let mail = fixture.keychain.client(for: Apps.mail)
        let tag = Data(utf8: "com.example.signing")
        try mail.add(.key, KeychainAttributes(label: "v1", applicationTag: tag), data: Data([1, 2, 3]))
        try mail.add(.key, KeychainAttributes(label: "v2", applicationTag: tag), data: Data([4, 5, 6]))
        expectKeychainError(.duplicateItem) {
            try mail.add(.key, KeychainAttributes(label: "v1", applicationTag: tag), data: Data())
        }
        let keys = try mail.query(KeychainQuery(.key, KeychainAttributes(applicationTag: tag), limit: .all, returning: .all))
        #expect(keys.map(\.data) == [Data([1, 2, 3]), Data([4, 5, 6])])
    }

    @Test func attributesOutsideTheClassAreRefused() throws {
        let fixture = try KeychainFixture()
        let mail = fixture.keychain.client(for: Apps.mail)
        let error = expectKeychainError(.noSuchAttribute) {
            try mail.add(.genericPassword, KeychainAttributes(server: "example.com"), data: Data())
        }
        #expect(error?.code.osStatus == -25303)
        expectKeychainError(.noSuchAttribute) {
            try mail.query(KeychainQuery(.key, KeychainAttributes(service: "s")))
        }
        expectKeychainError(.invalidParameter) {
            try mail.add(.internetPassword, KeychainAttributes(server: "h", port: 70_000), data: Data())
        }
    }

    @Test func emptyDataIsStoredAndReturned() throws {
        let fixture = try KeychainFixture()
        let mail = fixture.keychain.client(for: Apps.mail)
        try mail.add(.genericPassword, KeychainAttributes(service: "empty"), data: Data())
        #expect(try mail.item(.password(service: "empty")).data == Data())
    }
}
