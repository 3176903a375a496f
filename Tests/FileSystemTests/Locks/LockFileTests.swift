import FileSystem
import Foundation
import SystemPackage
import Testing

/// Named lock files: one rule for the name, one holder at a time.
@Suite struct LockFileTests {
    @Test func theLockOfAFileIsItsDottedNameWithLock() {
        #expect(LockFile.lockName(for: "com.example.app.plist") == ".com.example.app.plist.lock")
    }

    @Test func aHeldLockExcludesASecondAcquirer() throws {
        let scratch = try Scratch()
        let held = try LockFile.acquire(for: "domain.plist", in: scratch.directory)
        #expect(try scratch.directory.status(of: ".domain.plist.lock").isRegularFile)
        // A second open file description, as another process would have.
        #expect(try LockFile.tryAcquire(for: "domain.plist", in: scratch.directory) == nil)
        held.release()
        let second = try #require(try LockFile.tryAcquire(for: "domain.plist", in: scratch.directory))
        second.release()
    }

    @Test func aLockTakenByPathExcludesTheSameNameInADirectory() throws {
        let scratch = try Scratch()
        let held = try LockFile.acquire(atPath: scratch.path + "/" + LockFile.lockName(for: "domain.plist"))
        #expect(try LockFile.tryAcquire(for: "domain.plist", in: scratch.directory) == nil)
        held.release()
        #expect(try LockFile.tryAcquire(for: "domain.plist", in: scratch.directory) != nil)
    }

    @Test func aLockGoesWithItsValue() throws {
        let scratch = try Scratch()
        do { _ = try LockFile.acquire(for: "x", in: scratch.directory) }
        #expect(try LockFile.tryAcquire(for: "x", in: scratch.directory) != nil)
    }

    @Test func aDescriptorLockOnTheLockFileExcludesLockFile() throws {
        let scratch = try Scratch()
        let fd = try scratch.directory.open(LockFile.lockName(for: "store"), .readWrite, options: .create)
        defer { fd.closeQuietly() }
        try fd.lockExclusive()
        #expect(try LockFile.tryAcquire(for: "store", in: scratch.directory) == nil)
        fd.unlock()
        #expect(try LockFile.tryAcquire(for: "store", in: scratch.directory) != nil)
    }
}
