import Foundation
import Keychain
import Testing

/// Several keychains on one store in one process, working at once.
@Suite struct KeychainConcurrencyTests {
    @Test func twoKeychainsOnOneStoreSeeEachOthersWrites() throws {
        let fixture = try KeychainFixture()
        let second = try fixture.reopen()
        try fixture.keychain.client(for: Apps.mail).add(.genericPassword, KeychainAttributes(service: "from first"),
                                                         data: Data(utf8: "1"))
        #expect(try second.client(for: Apps.mail).item(.password(service: "from first")).data == Data(utf8: "1"))
        try second.client(for: Apps.mail).delete(.password(service: "from first"))
        expectKeychainError(.itemNotFound) {
            try fixture.keychain.client(for: Apps.mail).item(.password(service: "from first"))
        }
    }

    @Test func concurrentAddsFromTwoKeychainsAreAllKept() async throws {
        let fixture = try KeychainFixture()
        let keychains = [fixture.keychain, try fixture.reopen()]
        let perTask = 25
        try await withThrowingTaskGroup(of: Void.self) { group in
            for task in 0..<4 {
                let client = keychains[task % 2].client(for: Apps.mail)
                group.addTask {
                    for index in 0..<perTask {
                        try client.add(.genericPassword, KeychainAttributes(service: "task \(task)", account: "\(index)"),
                                       data: Data(utf8: "\(task)-\(index)"))
                    }
                }
            }
            try await group.waitForAll()
        }
        let all = try fixture.keychain.deviceClient.query(KeychainQuery(.genericPassword, limit: .all, returning: .all))
        #expect(all.count == 4 * perTask)
    }

    @Test func racingAddsOfOneIdentityLeaveExactlyOneItem() async throws {
        let fixture = try KeychainFixture()
        let keychains = [fixture.keychain, try fixture.reopen()]
        let outcomes = await withTaskGroup(of: KeychainError.Code?.self) { group in
            for task in 0..<8 {
                let client = keychains[task % 2].client(for: Apps.mail)
                group.addTask {
                    do {
                        try client.add(.genericPassword, KeychainAttributes(service: "one"), data: Data(utf8: "\(task)"))
                        return nil
                    } catch let error as KeychainError {
                        return error.code
                    } catch {
                        return .storageFailed
                    }
                }
            }
            var outcomes: [KeychainError.Code?] = []
            for await outcome in group { outcomes.append(outcome) }
            return outcomes
        }
        #expect(outcomes.filter { $0 == nil }.count == 1)
        #expect(outcomes.filter { $0 == .duplicateItem }.count == 7)
    }
}
