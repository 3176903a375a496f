import FileSystem
import Foundation
import SystemPackage
import Testing

/// A tree an app made far deeper than any stack or descriptor table: the
/// one walk is iterative and keeps at most 64 directories open, and one it
/// opens again on the way up must still be the one it saw.
@Suite struct DeepTreeWalkTests {
    /// `tree/d/d/…/d` `depth` levels down (made with `mkdirat` from the
    /// directory above: a path that long cannot be made by path), a file
    /// `bottom` at the end, and a file `e` beside the `d` of each level in
    /// `besides`.
    static func deepTree(in scratch: Scratch, depth: Int, besides: Set<Int> = []) throws {
        try scratch.directory.makeDirectory("tree", permissions: 0o700)
        var current = try scratch.directory.openDirectory("tree")
        for level in 0..<depth {
            if besides.contains(level) {
                let file = try current.open("e", .writeOnly, options: [.create, .exclusiveCreate], permissions: 0o600)
                file.closeQuietly()
            }
            try current.makeDirectory("d", permissions: 0o700)
            let next = try current.openDirectory("d")
            current.closeQuietly()
            current = next
        }
        let file = try current.open("bottom", .writeOnly, options: [.create, .exclusiveCreate], permissions: 0o600)
        file.closeQuietly()
        current.closeQuietly()
    }

    /// How many descriptors this process has open.
    static func openDescriptors() throws -> Int {
        try FileSystemPaths.entries(atPath: "/proc/self/fd").count
    }

    @Test func aWalk10000DeepKeepsItsOrderAndFewDescriptors() throws {
        let scratch = try Scratch()
        try Self.deepTree(in: scratch, depth: 10_000, besides: [3, 70, 5_000])
        let tree = try scratch.directory.openDirectory("tree")
        defer { tree.closeQuietly() }
        let before = try Self.openDescriptors()
        var order: [(depth: Int, name: String)] = []
        var mostOpen = 0
        try tree.walkTree { entry, _ throws(FileSystemError) in
            if entry.name != "d" || entry.depth % 500 == 0 { order.append((entry.depth, entry.name)) }
            if entry.depth % 97 == 0 { mostOpen = max(mostOpen, (try? Self.openDescriptors()) ?? 0) }
            return .descend
        }
        // 64 held and one listing; the count is the whole process's, and
        // tests running beside this one (crash workers, servers) opened 131
        // at once in a filtered run. A walk holding one per level would
        // hold 10,000: the bound tells the two apart with room to spare.
        #expect(mostOpen - before <= 1_000, "the walk held \(mostOpen - before) descriptors")
        // Depth first, names in bytewise order: the bottom, then each `e`
        // on the way back up (its directory opened again through `..`).
        let files = order.filter { $0.name != "d" }
        #expect(files.map(\.name) == ["bottom", "e", "e", "e"])
        #expect(files.map(\.depth) == [10_000, 5_000, 70, 3])
    }

    @Test func measureRemoveAndCopyGoAsDeep() throws {
        let scratch = try Scratch()
        try Self.deepTree(in: scratch, depth: 10_000, besides: [100])
        let tree = try scratch.directory.openDirectory("tree")
        defer { tree.closeQuietly() }
        let measured = try tree.measureTree()
        #expect(measured == TreeTally(files: 2, directories: 10_000, bytes: measured.bytes))
        // A copy keeps its order and permissions at any depth (its copies'
        // directories are held and opened again the same way).
        try scratch.directory.makeDirectory("copies", permissions: 0o700)
        let copies = try scratch.directory.openDirectory("copies")
        defer { copies.closeQuietly() }
        try scratch.directory.copyTree("tree", to: copies, "tree")
        let copy = try copies.openDirectory("tree")
        #expect(try copy.measureTree() == TreeTally(files: 2, directories: 10_000, bytes: measured.bytes))
        copy.closeQuietly()
        let removed = try tree.removeContents()
        #expect(removed.files == 2 && removed.directories == 10_000)
        #expect(try tree.entries().isEmpty)
        #expect(try copies.removeTree("tree").directories == 10_001)
    }

    /// An app moves a directory the walk has closed (it is deeper than 64
    /// below it) and plants another of the same name: coming back up, the
    /// walk opens the one it saw (the moved one, through `..`), and never
    /// enters the planted one.
    @Test func aDirectorySwappedAboveTheHeldOnesIsNeverWalkedInPlaceOfTheOneSeen() throws {
        let scratch = try Scratch()
        try Self.deepTree(in: scratch, depth: 200, besides: [10])
        let tree = try scratch.directory.openDirectory("tree")
        defer { tree.closeQuietly() }
        let level10 = scratch.path + "/tree" + String(repeating: "/d", count: 10)
        var names: [String] = []
        var swapped = false
        try tree.walkTree { entry, _ throws(FileSystemError) in
            if entry.depth == 150 && !swapped {
                swapped = true
                // The `d` of level 10 goes elsewhere; a planted tree takes its name.
                #expect(rename(level10 + "/d", scratch.path + "/moved") == 0)
                #expect(mkdir(level10 + "/d", 0o700) == 0)
                #expect(mkdir(level10 + "/d/planted", 0o700) == 0)
            }
            if entry.name != "d" { names.append("\(entry.depth) \(entry.name)") }
            return .descend
        }
        #expect(swapped)
        #expect(names == ["200 bottom", "10 e"])
    }
}
