import FileSystem
import Foundation
import SystemPackage
import Testing
import TestSupport

/// Descriptor tree walks: never through a link, and a file read after a
/// scan must be the one the scan saw.
@Suite struct TreeWalkTests {
    /// `tree/` with files, a nested directory and links (to a directory
    /// inside, and out), beside `outside/`.
    static func fixture() throws -> Scratch {
        let scratch = try Scratch("walk")
        try scratch.write("SECRET", to: "outside/secret.txt")
        try scratch.write("b", to: "tree/a/b.txt")
        try scratch.write("d", to: "tree/a/c/d.txt")
        try scratch.link("tree/inner", to: "a")
        try scratch.link("tree/out", to: scratch.path + "/outside")
        return scratch
    }

    @Test func theWalkNeverFollowsALinkAndReportsInodes() throws {
        let scratch = try Self.fixture()
        let tree = try scratch.directory.openDirectory("tree")
        defer { tree.closeQuietly() }
        var seen: [String: FileStatus] = [:]
        try tree.walkTree { entry, parent throws(FileSystemError) in
            seen[entry.path] = entry.status
            #expect(try parent.status(of: entry.name).inode == entry.status.inode)
            return .descend
        }
        #expect(seen.keys.sorted() == ["a", "a/b.txt", "a/c", "a/c/d.txt", "inner", "out"])
        #expect(seen["inner"]?.isSymbolicLink == true)
        #expect(seen["out"]?.isSymbolicLink == true)
        let onDisk = try FileSystemPaths.status(atPath: scratch.path + "/tree/a/c/d.txt")
        #expect(seen["a/c/d.txt"]?.inode == onDisk?.inode)
        #expect(seen["a/c/d.txt"]?.device == onDisk?.device)
    }

    /// A name that is not valid UTF-8 stops a walk with `EILSEQ` naming
    /// where, unless the walk visits such names: then they are reached by
    /// their bytes, flagged, and a directory of that name is entered.
    @Test func namesThatAreNotUTF8AreRefusedOrVisitedByTheirBytes() throws {
        let scratch = try Scratch("walk-names")
        try scratch.write("ok", to: "tree/ok.txt")
        let made = Process()
        made.executableURL = URL(fileURLWithPath: "/bin/sh")
        made.arguments = ["-c", "cd \"$0\" && printf 'abc' > \"$(printf 'bad\\377')\" && mkdir \"$(printf 'dir\\376')\""
                          + " && printf 'z' > \"$(printf 'dir\\376/in.txt')\"", scratch.path + "/tree"]
        try made.run()
        try #require(made.waitForExit().status == 0)
        let tree = try scratch.directory.openDirectory("tree")
        defer { tree.closeQuietly() }

        #expect {
            try tree.walkTree { _, _ throws(FileSystemError) in .descend }
        } throws: { error in
            guard let error = error as? FileSystemError else { return false }
            return error.errno == .illegalByteSequence && error.path == "bad\u{FFFD}"
        }

        var seen: [String: (size: UInt64, repaired: Bool)] = [:]
        try tree.walkTree(repairedNames: .visit) { entry, _ throws(FileSystemError) in
            seen[entry.path] = (entry.status.size, entry.hasRepairedName)
            return .descend
        }
        #expect(seen.keys.sorted() == ["bad\u{FFFD}", "dir\u{FFFD}", "dir\u{FFFD}/in.txt", "ok.txt"])
        #expect(seen["bad\u{FFFD}"]?.size == 3 && seen["bad\u{FFFD}"]?.repaired == true)
        #expect(seen["dir\u{FFFD}/in.txt"]?.size == 1 && seen["dir\u{FFFD}/in.txt"]?.repaired == true)
        #expect(seen["ok.txt"]?.repaired == false)
        let names = try tree.sortedEntryNames()
        #expect(names.map(\.isRepaired) == [true, true, false])
        #expect(names.first?.bytes == Array("bad".utf8) + [0xFF])
    }

    @Test func entriesCarryTheirDepth() throws {
        let scratch = try Self.fixture()
        let tree = try scratch.directory.openDirectory("tree")
        defer { tree.closeQuietly() }
        var depths: [String: Int] = [:]
        try tree.walkTree { entry, _ throws(FileSystemError) in
            depths[entry.path] = entry.depth
            return .descend
        }
        #expect(depths == ["a": 0, "a/b.txt": 1, "a/c": 1, "a/c/d.txt": 2, "inner": 0, "out": 0])
    }

    /// An entry's attribute read through its directory (`getxattrat`, or an
    /// open where the kernel lacks it): the entry's own, never a link's target's.
    @Test func anEntrysAttributeIsReadThroughItsDirectory() throws {
        let scratch = try Self.fixture()
        let a = try scratch.directory.openDirectory("tree/a")
        defer { a.closeQuietly() }
        let file = try a.open("b.txt", .readOnly)
        defer { file.closeQuietly() }
        do { try file.setExtendedAttribute("user.test.flag", [1, 2]) } catch {
            if error.isUnsupported || error.isPermission { return }  // this file system keeps no attributes
            throw error
        }
        #expect(try a.extendedAttribute("user.test.flag", ofEntry: "b.txt") == [1, 2])
        #expect(try a.extendedAttribute("user.test.other", ofEntry: "b.txt") == nil)
        #expect(try a.extendedAttribute("user.test.flag", ofEntry: "c") == nil)
        let tree = try scratch.directory.openDirectory("tree")
        defer { tree.closeQuietly() }
        #expect(try tree.extendedAttribute("user.test.flag", ofEntry: "inner") == nil)
        do {
            _ = try a.extendedAttribute("user.test.flag", ofEntry: "missing")
            Issue.record("a missing entry was read")
        } catch {
            #expect(error.isNotFound)
        }
    }

    @Test func aSkippedDirectoryIsNotEntered() throws {
        let scratch = try Self.fixture()
        let tree = try scratch.directory.openDirectory("tree")
        defer { tree.closeQuietly() }
        var paths: [String] = []
        try tree.walkTree { entry, _ throws(FileSystemError) in
            paths.append(entry.path)
            return entry.name == "c" ? .skip : .descend
        }
        #expect(!paths.contains("a/c/d.txt"))
        #expect(paths.contains("a/c"))
    }

    @Test func openSeenRefusesAFileSwappedForALink() throws {
        let scratch = try Self.fixture()
        let a = try scratch.directory.openDirectory("tree/a")
        defer { a.closeQuietly() }
        let seen = try a.status(of: "b.txt")
        try a.remove("b.txt")
        try a.makeSymbolicLink("b.txt", target: scratch.path + "/outside/secret.txt")
        do {
            let fd = try a.openSeen("b.txt", as: seen)
            fd.closeQuietly()
            Issue.record("the link was opened")
        } catch {
            #expect(error.isLoop || error.isChangedSinceScan, "\(error)")
        }
    }

    @Test func openSeenRefusesAnotherInode() throws {
        let scratch = try Self.fixture()
        let folder = try scratch.directory.openDirectory("tree/a")
        defer { folder.closeQuietly() }
        let seen = try folder.status(of: "b.txt")
        let same = try folder.openSeen("b.txt", as: seen)
        same.closeQuietly()
        // A new file renamed over the name: same name, another inode.
        try folder.writeAtomically(Data("swapped".utf8), to: "b.txt")
        do {
            let fd = try folder.openSeen("b.txt", as: seen)
            fd.closeQuietly()
            Issue.record("another file was opened as the one scanned")
        } catch {
            #expect(error.isChangedSinceScan, "\(error)")
        }
    }

    @Test func removeTreeDoesNotFollowLinksOut() throws {
        let scratch = try Self.fixture()
        let tally = try scratch.directory.removeTree("tree")
        #expect(try scratch.directory.statusIfPresent(of: "tree") == nil)
        #expect(try scratch.read("outside/secret.txt") == "SECRET")
        #expect(tally.files == 4)  // b.txt, d.txt and the two links
        #expect(tally.directories == 3)
    }

    @Test func removeTreeOfALinkRemovesOnlyTheLink() throws {
        let scratch = try Self.fixture()
        _ = try scratch.directory.removeTree("tree/out")
        #expect(try scratch.read("outside/secret.txt") == "SECRET")
        #expect(try scratch.directory.statusIfPresent(of: "tree/out") == nil)
    }

    @Test func removeTreeByPathOfSomethingMissingIsAnEmptyTally() throws {
        let scratch = try Self.fixture()
        // Missing, and missing with its parent too: nothing to remove either way.
        #expect(try FileSystemPaths.removeTree(atPath: scratch.path + "/nothing") == TreeTally())
        #expect(try FileSystemPaths.removeTree(atPath: scratch.path + "/no/such/parent") == TreeTally())
        #expect(try scratch.read("outside/secret.txt") == "SECRET")
    }
}
