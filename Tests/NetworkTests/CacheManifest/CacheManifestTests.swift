import CacheManifest
import Container
import Foundation
import TestSupport
import Testing

@Suite("The cache manifest")
struct CacheManifestTests {
    @Test("two processes record into one manifest at once and nothing is lost")
    func twoProcesses() throws {
        let (directory, container) = try makeContainer()
        _ = try CacheManifest(container: container)
        guard let worker = BuiltExecutable.locate("download-worker") else { throw TestFailure("download-worker was not built") }
        let path = directory.url.appendingPathComponent("home").path
        let first = try ChildProcess.start(worker, ["--record", path, "400", "a"])
        let second = try ChildProcess.start(worker, ["--record", path, "400", "b"])
        let exits = (first.waitForExit(), second.waitForExit())
        #expect(exits.0.status == 0 && exits.1.status == 0)
        #expect(try CacheManifest(container: container).count() == 800)
    }

    @Test("the manifest lives in Application Support: backed up, never purged")
    func placement() throws {
        let (_, container) = try makeContainer()
        _ = try CacheManifest(container: container)
        #expect(container.fileExists(CacheManifest.relativePath))
        #expect(try container.backupVerdict(of: CacheManifest.relativePath).isIncluded)
        #expect(StorageRules.rules(forRelativePath: CacheManifest.relativePath).purgeableWhenDiskLow == false)
    }

    @Test("entries outside Caches and the pinned directory are refused by the check, row by row")
    func foreignPathRefused() throws {
        let (_, container) = try makeContainer()
        let manifest = try CacheManifest(container: container)
        try manifest.record(CachedResource(path: "Documents/secret", url: "http://example.invalid/", size: 1, sha256: "", fetchedAt: 0))
        let problems = try manifest.check().problems
        #expect(problems.map(\.path) == ["Documents/secret"])
        #expect(problems.first?.reason == .invalidPath)
        #expect(problems.first?.row != nil)
    }

    @Test("a parent component is refused wherever it is; names that only contain dots are not", arguments: [
        ("Library/Caches/../Documents/x", true), ("Library/Caches/a/..", true), ("Library/Caches/a/../../b", true),
        ("Library/Caches/...", false), ("Library/Caches/..x/y", false), ("Library/Caches/x../y", false),
        ("Library/Caches/.a/b", false), ("Library/Caches/a.b/.", false),
    ])
    func parentComponent(path: String, refused: Bool) throws {
        let (_, container) = try makeContainer()
        let manifest = try CacheManifest(container: container)
        try manifest.record(CachedResource(path: path, url: "http://example.invalid/", size: 1, sha256: "", fetchedAt: 0))
        let problems = try manifest.check().problems
        #expect(problems.map(\.path) == [path])
        #expect(problems.first?.reason == (refused ? .invalidPath : .missing))
    }

    @Test("the check groups entries by directory, neighbours and non-ASCII names included")
    func groupsByDirectory() throws {
        let (_, container) = try makeContainer()
        let manifest = try CacheManifest(container: container)
        // Directories whose names are prefixes of each other, sort between
        // each other's entries, or are not ASCII.
        let paths = ["Library/Caches/a/1", "Library/Caches/a/b/2", "Library/Caches/a/b/3", "Library/Caches/a-b/4",
                     "Library/Caches/ab/5", "Library/Caches/é/6", "Library/Caches/e\u{301}/7", "Library/Caches/top",
                     "Library/Caches/日本/8"]
        for path in paths {
            let parent = String(path[..<path.lastIndex(of: "/")!])
            try container.createDirectory(parent)
            try container.writeAtomically(Data(path.utf8), to: path, durability: .none)
            let info = try container.attributes(path)
            try manifest.record(CachedResource(path: path, url: "http://example.invalid/", size: Int64(path.utf8.count), sha256: "",
                                               fetchedAt: 0, inode: Int64(info.inode), modifiedNanoseconds: info.modificationNanoseconds))
        }
        var report = try manifest.check()
        #expect(report.healthy == paths.count && report.problems.isEmpty, "\(report.problems)")
        try container.removeItem("Library/Caches/é/6")
        try container.writeAtomically(Data("longer than before".utf8), to: "Library/Caches/a/b/3", durability: .none)
        report = try manifest.check()
        #expect(Set(report.problems.map(\.path)) == ["Library/Caches/é/6", "Library/Caches/a/b/3"])
        #expect(report.healthy == paths.count - 2)
    }

    @Test("problems spread over many directories are reported in path order, each kind found in each part of the split")
    func problemsInPathOrder() throws {
        let (_, container) = try makeContainer()
        let manifest = try CacheManifest(container: container)
        // 60 directories of 5 files, and a pinned file that sorts before
        // them all: the check splits the directories between the cores, so
        // the problems below fall in every part.
        var paths = ["Library/Application Support/Pinned/kept"]
        for directory in 0..<60 {
            paths += (0..<5).map { "Library/Caches/spread/d\(directory < 10 ? "0" : "")\(directory)/f\($0)" }
        }
        for path in paths {
            try container.createDirectory(String(path[..<path.lastIndex(of: "/")!]))
            try container.writeAtomically(Data(path.utf8), to: path, durability: .none)
            let info = try container.attributes(path)
            try manifest.record(CachedResource(path: path, url: "http://example.invalid/" + path, size: Int64(path.utf8.count),
                                               sha256: "", fetchedAt: 0, inode: Int64(info.inode),
                                               modifiedNanoseconds: info.modificationNanoseconds))
        }
        var expected: [CacheProblem] = []
        func problem(_ path: String, _ reason: CacheProblem.Reason, found: Int?) {
            expected.append(CacheProblem(path: path, url: "http://example.invalid/" + path, reason: reason,
                                         expectedSize: Int64(path.utf8.count), foundSize: found.map(Int64.init)))
        }
        // Listed out of order on purpose; the report must sort them.
        for directory in ["d57", "d03", "d31", "d29"] {
            let base = "Library/Caches/spread/" + directory + "/"
            try container.removeItem(base + "f1")
            try FileManager.default.createSymbolicLink(atPath: container.url(forRelativePath: base + "f1").path,
                                                       withDestinationPath: "f0")
            problem(base + "f1", .notAFile, found: 2)
            try container.removeItem(base + "f2")
            problem(base + "f2", .missing, found: nil)
            try container.writeAtomically(Data("short".utf8), to: base + "f3", durability: .none)
            problem(base + "f3", .truncated, found: 5)
            try container.writeAtomically(Data((base + "f4").utf8), to: base + "f4", durability: .none)
            problem(base + "f4", .changed, found: (base + "f4").utf8.count)
        }
        try container.removeItem("Library/Application Support/Pinned/kept")
        problem("Library/Application Support/Pinned/kept", .missing, found: nil)
        expected.sort { $0.path.utf8.lexicographicallyPrecedes($1.path.utf8) }

        let report = try manifest.check()
        #expect(report.problems == expected)
        #expect(report.checked == paths.count && report.healthy == paths.count - expected.count)
        let recordedBytes: Int64 = paths.map { Int64($0.utf8.count) }.reduce(0, +)
        let problemBytes: Int64 = expected.map(\.expectedSize).reduce(0, +)
        #expect(report.healthyBytes == recordedBytes - problemBytes)
    }

    @Test("forgetting is idempotent")
    func forgetTwice() throws {
        let (_, container) = try makeContainer()
        let manifest = try CacheManifest(container: container)
        try manifest.forget(path: "Library/Caches/none")
        try manifest.forget(path: "Library/Caches/none")
        #expect(try manifest.count() == 0)
    }
}
