import Container
import FileSystem
import Foundation
import TestSupport
import Testing

/// Attempts to reach outside the container. Each runs against both path
/// resolvers (the kernel's `openat2` and the user-space walk). An attempt
/// may fail with any error or succeed harmlessly inside the container; it
/// must never read, create, change or delete anything outside.
@Suite struct EscapeCorpusTests {
    static let secret = Data("SECRET-OUTSIDE".utf8)

    /// A container with a sibling "outside" directory and a set of hostile links.
    struct Fixture {
        let temp: TemporaryDirectory
        let container: AppContainer
        var outside: URL { temp.url.appendingPathComponent("outside") }
        var root: URL { container.root }

        init(_ resolution: PathResolution) throws {
            temp = try TemporaryDirectory("escape")
            let fm = FileManager.default
            let outside = temp.url.appendingPathComponent("outside")
            try fm.createDirectory(at: outside, withIntermediateDirectories: true)
            try EscapeCorpusTests.secret.write(to: outside.appendingPathComponent("secret.txt"))
            container = try AppContainer.create(at: temp.url.appendingPathComponent("App"), bundleName: "Notes",
                                                options: ContainerOptions(resolution: resolution))
            let documents = container.url(for: .documents).path
            func link(_ name: String, _ target: String) throws {
                try fm.createSymbolicLink(atPath: documents + "/" + name, withDestinationPath: target)
            }
            try link("abs-dir", outside.path)
            try link("abs-file", outside.appendingPathComponent("secret.txt").path)
            try link("rel-dir", "../../outside")
            try link("rel-file", "../../outside/secret.txt")
            try link("chain-a", "chain-b")
            try link("chain-b", "chain-c")
            try link("chain-c", outside.path)
            try link("root", "/")
            try link("loop-a", "loop-b")
            try link("loop-b", "loop-a")
            try link("up", "..")
            try link("upup", "../..")
            try link("dangle", outside.appendingPathComponent("created.txt").path)
            try link("proc", "/proc/self/root")
            try link("inside-abs", root.appendingPathComponent("Library").path)
            try link("hop", "../tmp/hop2")
            try fm.createSymbolicLink(atPath: container.url(for: .tmp).path + "/hop2", withDestinationPath: "../../outside")
            try fm.createSymbolicLink(atPath: container.url(for: .caches).path + "/evil", withDestinationPath: outside.path)
            try fm.createSymbolicLink(atPath: root.appendingPathComponent("Notes.app/res").path, withDestinationPath: outside.path)
        }

        /// Everything outside, as it is now: names and contents.
        func outsideSnapshot() -> [String: Data] {
            var result: [String: Data] = [:]
            let names = (try? FileManager.default.subpathsOfDirectory(atPath: outside.path)) ?? []
            for name in names {
                result[name] = (try? Data(contentsOf: outside.appendingPathComponent(name))) ?? Data()
            }
            return result
        }
    }

    /// One attempt: returns what it read, if anything.
    typealias Attempt = @Sendable (AppContainer) throws -> Data?

    static let corpus: [(String, Attempt)] = [
        ("dotdot", { try $0.read("../outside/secret.txt") }),
        ("dotdot deep", { try $0.read("Documents/../../outside/secret.txt") }),
        ("dotdot dotslash", { try $0.read("Documents/./../../outside/secret.txt") }),
        ("dotdot doubled slashes", { try $0.read("Documents//..//..//outside/secret.txt") }),
        ("bare dotdot", { try $0.contentsOfDirectory("..").joined().data(using: .utf8) }),
        ("Documents dotdot", { try $0.contentsOfDirectory("Documents/..").isEmpty ? nil : nil }),
        ("absolute /etc/passwd", { try $0.read("/etc/passwd") }),
        ("tilde", { try $0.read("~/secret.txt") }),
        ("NUL byte", { try $0.read("Documents/a\u{0}/../../outside/secret.txt") }),
        ("backslash dotdot", { try $0.read("..\\outside\\secret.txt") }),
        ("percent-encoded dotdot", { try $0.read("Documents/%2e%2e/%2e%2e/outside/secret.txt") }),
        ("two-dot leader lookalike", { try $0.read("Documents/\u{2025}/\u{2025}/outside/secret.txt") }),
        ("absolute dir link", { try $0.read("Documents/abs-dir/secret.txt") }),
        ("absolute file link", { try $0.read("Documents/abs-file") }),
        ("relative dir link", { try $0.read("Documents/rel-dir/secret.txt") }),
        ("relative file link", { try $0.read("Documents/rel-file") }),
        ("link chain", { try $0.read("Documents/chain-a/secret.txt") }),
        ("link to /", { try $0.read("Documents/root/etc/passwd") }),
        ("link loop", { try $0.read("Documents/loop-a") }),
        ("link to parent then dotdot link", { try $0.read("Documents/up/Documents/upup/outside/secret.txt") }),
        ("link to grandparent", { try $0.read("Documents/upup/outside/secret.txt") }),
        ("magic link /proc/self/root", { try $0.read("Documents/proc/etc/passwd") }),
        ("two-hop relative links", { try $0.read("Documents/hop/secret.txt") }),
        ("absolute link back inside", { try $0.contentsOfDirectory("Documents/inside-abs").joined().data(using: .utf8) }),
        ("link in Caches", { try $0.read("Library/Caches/evil/secret.txt") }),
        ("link in bundle", { try $0.read("Notes.app/res/secret.txt") }),
        ("trailing slash on file link", { try $0.read("Documents/abs-file/") }),
        ("exists through link", { $0.fileExists("Documents/abs-dir/secret.txt") ? secret : nil }),
        ("exists final link", { $0.fileExists("Documents/abs-file") ? secret : nil }),
        ("attributes through link", { _ = try $0.attributes("Documents/abs-dir/secret.txt"); return secret }),
        ("attributes of final link is the link", {
            let info = try $0.attributes("Documents/abs-file")
            return info.isSymbolicLink ? nil : secret
        }),
        ("list through link", { try $0.contentsOfDirectory("Documents/abs-dir").joined().data(using: .utf8) }),
        ("list through relative link", { try $0.contentsOfDirectory("Documents/rel-dir").joined().data(using: .utf8) }),
        ("write through dir link", { try $0.writeAtomically(Data("pwned".utf8), to: "Documents/abs-dir/pwned.txt"); return nil }),
        ("write through relative dir link", { try $0.writeAtomically(Data("pwned".utf8), to: "Documents/rel-dir/pwned.txt"); return nil }),
        ("write over file link", { try $0.writeAtomically(Data("pwned".utf8), to: "Documents/abs-file"); return nil }),
        ("write over dangling link", { try $0.writeAtomically(Data("pwned".utf8), to: "Documents/dangle"); return nil }),
        ("write in Caches link", { try $0.writeAtomically(Data("pwned".utf8), to: "Library/Caches/evil/secret.txt"); return nil }),
        ("mkdir through link", { try $0.createDirectory("Documents/abs-dir/newdir"); return nil }),
        ("mkdir through link chain", { try $0.createDirectory("Documents/chain-a/newdir/deeper"); return nil }),
        ("remove through link", { try $0.removeItem("Documents/abs-dir/secret.txt"); return nil }),
        ("remove the link itself", { try $0.removeItem("Documents/rel-dir"); return nil }),
        ("remove link to dir tree", { try $0.removeItem("Documents/chain-c"); return nil }),
        ("move out through link", { try $0.moveItem("Documents/abs-dir/secret.txt", to: "Documents/stolen.txt"); return try? $0.read("Documents/stolen.txt") }),
        ("move in through link", { try $0.moveItem("tmp", to: "Documents/abs-dir/tmp"); return nil }),
        ("copy out through link", { try $0.copyItem("Documents/abs-dir/secret.txt", to: "Documents/copied.txt"); return try? $0.read("Documents/copied.txt") }),
        ("copy the file link", { try $0.copyItem("Documents/abs-file", to: "Documents/link-copy"); return try? $0.read("Documents/link-copy") }),
        ("copy into link", { try $0.copyItem("Library/Preferences", to: "Documents/abs-dir/prefs"); return nil }),
        ("lock through link", { try $0.withExclusiveLock(on: "Documents/abs-dir/x") { nil } }),
        ("lock on dangling link", { try $0.withExclusiveLock(on: "Documents/dangle") { nil } }),
        ("exclude through link", { try $0.setExcludedFromBackup(true, at: "Documents/abs-dir/secret.txt"); return nil }),
        ("is-excluded through link", { _ = try $0.isExcludedFromBackup("Documents/abs-dir/secret.txt"); return secret }),
        ("write at root", { try $0.writeAtomically(Data("x".utf8), to: "evil.txt"); return nil }),
        ("write into bundle", { try $0.writeAtomically(Data("x".utf8), to: "Notes.app/Info.plist"); return nil }),
        ("overlong component", { try $0.read("Documents/" + String(repeating: "a", count: 300)) }),
        ("overlong path", { try $0.read(String(repeating: "Documents/", count: 500)) }),
    ]

    @Test(arguments: [PathResolution.automatic, .componentWalk])
    func noAttemptEscapes(resolution: PathResolution) throws {
        let fixture = try Fixture(resolution)
        let before = fixture.outsideSnapshot()
        #expect(Self.corpus.count >= 50)
        for (name, attempt) in Self.corpus {
            let result = try? attempt(fixture.container)
            if let data = result ?? nil {
                #expect(data != Self.secret && !String(decoding: data, as: UTF8.self).contains("SECRET"),
                        "\(name): read outside content")
                #expect(!String(decoding: data, as: UTF8.self).contains("root:"), "\(name): read /etc/passwd")
            }
            #expect(fixture.outsideSnapshot() == before, "\(name): changed something outside")
        }
        #expect(FileManager.default.fileExists(atPath: fixture.outside.appendingPathComponent("secret.txt").path))
    }

    @Test(arguments: [PathResolution.automatic, .componentWalk])
    func lexicalAndLinkEscapesGiveTypedErrors(resolution: PathResolution) throws {
        let fixture = try Fixture(resolution)
        let c = fixture.container
        #expect(try code { _ = try c.read("../outside/secret.txt") } == .escapesContainer)
        #expect(try code { _ = try c.read("/etc/passwd") } == .escapesContainer)
        #expect(try code { _ = try c.read("Documents/a\u{0}b") } == .invalidPath)
        #expect(try code { _ = try c.read("Documents/abs-dir/secret.txt") } == .escapesContainer)
        #expect(try code { _ = try c.read("Documents/rel-dir/secret.txt") } == .escapesContainer)
        #expect(try code { _ = try c.read("Documents/abs-file") } == .escapesContainer)
        #expect(try code { _ = try c.read("Documents/loop-a") } == .symbolicLinkLoop)
        #expect(try code { try c.writeAtomically(Data(), to: "Documents/abs-dir/x") } == .escapesContainer)
        // A link that stays inside is followed.
        try c.writeAtomically(Data("in".utf8), to: "Documents/inside.txt")
        try FileManager.default.createSymbolicLink(atPath: c.url(for: .documents).path + "/ok", withDestinationPath: "inside.txt")
        #expect(try c.read("Documents/ok") == Data("in".utf8))
        #expect(try c.read("Documents/up/Documents/inside.txt") == Data("in".utf8))
    }

    /// A directory is swapped for a link to the outside (and back) as fast as
    /// possible while reads and writes go through it.
    @Test(arguments: [PathResolution.automatic, .componentWalk])
    func symlinkSwappedInDuringOperationsNeverEscapes(resolution: PathResolution) throws {
        let fixture = try Fixture(resolution)
        let c = fixture.container
        let documents = c.url(for: .documents).path
        let real = documents + "/race-real"
        let target = documents + "/race"
        try FileManager.default.createDirectory(atPath: real, withIntermediateDirectories: true)
        try Data("INSIDE".utf8).write(to: URL(fileURLWithPath: real + "/secret.txt"))
        try Data("INSIDE".utf8).write(to: URL(fileURLWithPath: documents + "/race-file-real"))
        let outsidePath = fixture.outside.path
        // The name exists from the start, so no operation below creates it
        // as a real directory before the swapping begins.
        LibC.replaceWithLink(documents + "/.swap", target, "race-real")
        LibC.replaceWithLink(documents + "/.swapf", documents + "/race-file", "race-file-real")
        let stop = StopFlag()
        let swapper = Thread {
            var flip = false
            while !stop.isSet {
                // Atomically replace each name with a link either to the real
                // item inside or to the outside.
                LibC.replaceWithLink(documents + "/.swap", target, flip ? outsidePath : "race-real")
                LibC.replaceWithLink(documents + "/.swapf", documents + "/race-file",
                                     flip ? outsidePath + "/secret.txt" : "race-file-real")
                flip.toggle()
            }
        }
        swapper.start()
        defer { stop.set() }
        var insideReads = 0
        var refused = 0
        let before = fixture.outsideSnapshot()
        for index in 0..<1000 {
            do {
                let data = try c.read("Documents/race/secret.txt")
                #expect(data == Data("INSIDE".utf8))
                insideReads += 1
            } catch let error as ContainerError where error.code == .escapesContainer {
                refused += 1
            } catch {}
            if let data = try? c.read("Documents/race-file") {
                #expect(data == Data("INSIDE".utf8))
            }
            _ = try? c.writeAtomically(Data("W".utf8), to: "Documents/race/w\(index % 4)")
            _ = try? c.createDirectory("Documents/race/d\(index % 4)")
            _ = try? c.attributes("Documents/race/secret.txt")
            _ = try? c.contentsOfDirectory("Documents/race")
        }
        stop.set()
        #expect(fixture.outsideSnapshot() == before)
        // Both states of the swap were met: some reads succeeded inside and
        // some were refused as escapes.
        #expect(insideReads > 0)
        #expect(refused > 0)
    }
}

/// A flag one thread sets and another polls.
final class StopFlag: @unchecked Sendable {
    // @unchecked: `value` is only touched with `lock` held.
    private let lock = NSLock()
    private var value = false
    var isSet: Bool { lock.lock(); defer { lock.unlock() }; return value }
    func set() { lock.lock(); value = true; lock.unlock() }
}
