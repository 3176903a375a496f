import FileSystem
import Foundation
import SystemPackage
import Testing

/// The descriptor tree copy: files, links as links, modes kept, nothing
/// reached through a link, and the hook that carries over the rest.
@Suite struct TreeCopyTests {
    /// `tree/` with files (one read-only), a read-only nested directory and
    /// links (to a directory inside, and out), beside `outside/`.
    static func fixture() throws -> Scratch {
        let scratch = try Scratch("copy")
        try scratch.write("SECRET", to: "outside/secret.txt")
        try scratch.write("b", to: "tree/a/b.txt", permissions: 0o640)
        try scratch.write("d", to: "tree/a/c/d.txt", permissions: 0o444)
        try scratch.directory.setPermissions(of: "tree/a/c", 0o555)
        try scratch.link("tree/inner", to: "a")
        try scratch.link("tree/out", to: scratch.path + "/outside")
        return scratch
    }

    private func mode(_ scratch: Scratch, _ name: String) throws -> UInt32? {
        try FileSystemPaths.status(atPath: scratch.path + "/" + name)?.permissions
    }

    @Test func aTreeIsCopiedWithItsModesAndLinksAsLinks() throws {
        let scratch = try Self.fixture()
        defer { try? scratch.directory.setPermissions(of: "tree/a/c", 0o755) }
        defer { try? scratch.directory.setPermissions(of: "copy/a/c", 0o755) }
        let copied = try scratch.directory.copyTree("tree", to: scratch.directory, "copy")
        #expect(copied == 2)
        #expect(try scratch.read("copy/a/b.txt") == "b")
        #expect(try scratch.read("copy/a/c/d.txt") == "d")
        #expect(try mode(scratch, "copy/a/b.txt") == 0o640)
        #expect(try mode(scratch, "copy/a/c/d.txt") == 0o444)
        #expect(try mode(scratch, "copy/a/c") == 0o555)
        #expect(try mode(scratch, "copy") == mode(scratch, "tree"))
        #expect(try scratch.directory.readLink("copy/inner") == "a")
        #expect(try scratch.directory.readLink("copy/out") == scratch.path + "/outside")
        // The link out was copied as a link: nothing of what it points at.
        #expect(try FileSystemPaths.status(atPath: scratch.path + "/copy/out")?.isSymbolicLink == true)
        #expect(try scratch.temporaries(in: "copy/a").isEmpty)
    }

    @Test func aSingleFileOrLinkIsCopiedAndAnExistingDestinationRefused() throws {
        let scratch = try Self.fixture()
        defer { try? scratch.directory.setPermissions(of: "tree/a/c", 0o755) }
        let tree = try scratch.directory.openDirectory("tree")
        defer { tree.closeQuietly() }
        #expect(try tree.copyTree("a", to: tree, "a2", options: TreeCopyOptions(durability: .full)) == 2)
        try? scratch.directory.setPermissions(of: "tree/a2/c", 0o755)
        let outside = try scratch.directory.openDirectory("outside")
        defer { outside.closeQuietly() }
        #expect(try outside.copyTree("secret.txt", to: tree, "copied.txt") == 6)
        #expect(try scratch.read("tree/copied.txt") == "SECRET")
        try tree.copyTree("out", to: tree, "out2")
        #expect(try tree.readLink("out2") == scratch.path + "/outside")
        #expect(throws: FileSystemError.self) { try outside.copyTree("secret.txt", to: tree, "copied.txt") }
        let missing = #expect(throws: FileSystemError.self) { try tree.copyTree("nothing", to: tree, "x") }
        #expect(missing?.isNotFound == true)
    }

    @Test func anOpenDirectoryIsCopiedWithAFollowedLinkAtTheRoot() throws {
        let scratch = try Self.fixture()
        defer { try? scratch.directory.setPermissions(of: "tree/a/c", 0o755) }
        // The root reached through the link `tree/inner` (-> a), as a bundle named by a link is.
        let root = try FileDescriptor.openDirectory(atPath: scratch.path + "/tree/inner")
        defer { root.closeQuietly() }
        try root.copyTree(to: scratch.directory, "bundle")
        defer { try? scratch.directory.setPermissions(of: "bundle/c", 0o755) }
        #expect(try FileSystemPaths.status(atPath: scratch.path + "/bundle")?.isDirectory == true)
        #expect(try scratch.read("bundle/c/d.txt") == "d")
    }

    @Test func theHookSeesEveryFileAndDirectoryWithBothEndsOpen() throws {
        let scratch = try Self.fixture()
        defer { try? scratch.directory.setPermissions(of: "tree/a/c", 0o755) }
        var seen: [String] = []
        let options = TreeCopyOptions { item throws(FileSystemError) in
            seen.append(item.path)
            #expect(try item.source.status().isSameFile(as: item.status))
            #expect(try item.copy.status().isDirectory == item.status.isDirectory)
            if item.status.isRegularFile { try item.copy.writeFully(Data("+".utf8)) }
        }
        try scratch.directory.copyTree("tree", to: scratch.directory, "copy", options: options)
        defer { try? scratch.directory.setPermissions(of: "copy/a/c", 0o755) }
        #expect(seen == ["", "a", "a/b.txt", "a/c", "a/c/d.txt"])
        // The hook ran on the file before it took its name.
        #expect(try scratch.read("copy/a/b.txt") == "b+")
    }

    @Test func aFailingHookLeavesNoCopyOfTheFileAndNamesThePath() throws {
        let scratch = try Self.fixture()
        defer { try? scratch.directory.setPermissions(of: "tree/a/c", 0o755) }
        let options = TreeCopyOptions { item throws(FileSystemError) in
            if item.path == "a/b.txt" { throw FileSystemError(.ioError, "mark", path: "") }
        }
        let error = #expect(throws: FileSystemError.self) {
            try scratch.directory.copyTree("tree", to: scratch.directory, "copy", options: options)
        }
        #expect(error?.path == "tree/a/b.txt")
        #expect(try scratch.read("copy/a/b.txt") == nil)
        #expect(try scratch.temporaries(in: "copy/a").isEmpty)
    }

    @Test func specialFilesAreLeftOutBelowTheRootAndRefusedAtIt() throws {
        let scratch = try Scratch("copy-special")
        try scratch.write("x", to: "tree/file")
        #expect(mkfifo(scratch.path + "/tree/pipe", 0o600) == 0)
        try scratch.directory.copyTree("tree", to: scratch.directory, "copy")
        #expect(try FileSystemPaths.entries(atPath: scratch.path + "/copy") == ["file"])
        let tree = try scratch.directory.openDirectory("tree")
        defer { tree.closeQuietly() }
        let error = #expect(throws: FileSystemError.self) { try tree.copyTree("pipe", to: tree, "pipe2") }
        #expect(error?.isUnsupported == true)
    }
}
