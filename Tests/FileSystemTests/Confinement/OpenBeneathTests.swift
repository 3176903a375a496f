import FileSystem
import Foundation
import SystemPackage
import Testing

/// Resolution beneath a held directory refuses every way out, with the
/// kernel's `openat2` and with the user-space component walk alike.
@Suite struct OpenBeneathTests {
    /// `root/` with a file and hostile links, beside `outside/secret.txt`.
    struct Fixture {
        let scratch: Scratch
        let root: DirectoryHandle

        init(_ resolution: PathResolution) throws {
            scratch = try Scratch("beneath")
            try scratch.write("SECRET", to: "outside/secret.txt")
            try scratch.write("inside", to: "root/inside/file.txt")
            let rootPath = scratch.path + "/root"
            let links: [(String, String)] = [
                ("up", "../outside"),
                ("up-file", "../outside/secret.txt"),
                ("absolute", scratch.path + "/outside/secret.txt"),
                ("absolute-dir", scratch.path + "/outside"),
                ("inner", "inside/file.txt"),
                ("inside/back-out", "../../outside/secret.txt"),
                ("loop", "loop"),
            ]
            let root = try FileDescriptor.openDirectory(atPath: rootPath)
            defer { root.closeQuietly() }
            for (name, target) in links {
                let (parent, last) = DirectoryHandle.split(name)
                let directory = parent.isEmpty ? root : try root.openDirectory(parent)
                defer { if !parent.isEmpty { directory.closeQuietly() } }
                try directory.makeSymbolicLink(last, target: target)
            }
            self.root = try DirectoryHandle(openingAt: rootPath, resolution: resolution)
        }
    }

    static let resolutions: [PathResolution] = [.automatic, .componentWalk]

    @Test(arguments: resolutions)
    func dotDotAboveTheRootIsAnEscape(resolution: PathResolution) throws {
        let fixture = try Fixture(resolution)
        for path in ["../outside/secret.txt", "inside/../../outside/secret.txt", "..", "inside/../.."] {
            expectEscape(fixture.root, path)
        }
    }

    @Test(arguments: resolutions)
    func absoluteLinksAreEscapes(resolution: PathResolution) throws {
        let fixture = try Fixture(resolution)
        for path in ["absolute", "absolute-dir/secret.txt"] { expectEscape(fixture.root, path) }
    }

    @Test(arguments: resolutions)
    func relativeLinksLeadingOutAreEscapes(resolution: PathResolution) throws {
        let fixture = try Fixture(resolution)
        for path in ["up/secret.txt", "up-file", "inside/back-out"] { expectEscape(fixture.root, path) }
    }

    @Test(arguments: resolutions)
    func nothingOutsideIsCreated(resolution: PathResolution) throws {
        let fixture = try Fixture(resolution)
        #expect(throws: FileSystemError.self) {
            try fixture.root.open("up/created.txt", .writeOnly, options: [.create, .exclusiveCreate])
        }
        #expect(try fixture.scratch.read("outside/created.txt") == nil)
    }

    @Test(arguments: resolutions)
    func linksThatStayBeneathAreFollowed(resolution: PathResolution) throws {
        let fixture = try Fixture(resolution)
        let fd = try fixture.root.open("inner", .readOnly)
        defer { fd.closeQuietly() }
        #expect(try text(of: fd) == "inside")
        let dotted = try fixture.root.open("inside/./../inside/file.txt", .readOnly)
        defer { dotted.closeQuietly() }
        #expect(try text(of: dotted) == "inside")
    }

    @Test(arguments: resolutions)
    func aFinalLinkIsRefusedWhenNotFollowed(resolution: PathResolution) throws {
        let fixture = try Fixture(resolution)
        do {
            let fd = try fixture.root.open("inner", .readOnly, followFinal: false)
            fd.closeQuietly()
            Issue.record("the link was followed")
        } catch {
            #expect(error.isLoop, "\(error)")
        }
    }

    @Test(arguments: resolutions)
    func aLinkLoopFails(resolution: PathResolution) throws {
        let fixture = try Fixture(resolution)
        #expect(throws: FileSystemError.self) { try fixture.root.open("loop", .readOnly) }
    }

    /// Opening `path` beneath `root` must fail as an escape (`EXDEV`).
    private func expectEscape(_ root: DirectoryHandle, _ path: String, sourceLocation: SourceLocation = #_sourceLocation) {
        do {
            let fd = try root.open(path, .readOnly)
            fd.closeQuietly()
            Issue.record("\(path) was opened", sourceLocation: sourceLocation)
        } catch {
            #expect(error.isEscape, "\(path): \(error)", sourceLocation: sourceLocation)
        }
    }
}
