#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import FileSystem
import Foundation
import SystemPackage
import Testing

/// The one rule for a command's named output: a regular file (or a new
/// name) is replaced atomically, a character device, a FIFO or a socket is
/// written through and stays what it was, anything else is refused. The
/// devices are private nodes made with `mknod` in a scratch folder, never
/// the machine's own.
@Suite struct OutputDestinationTests {
    /// A private copy of the null device (1, 3), made as root only.
    static func makeNullDevice(_ path: String) throws {
        let nullDevice = dev_t((1 << 8) | 3)
        guard mknod(path, S_IFCHR | 0o666, nullDevice) == 0 else {
            throw FileSystemError(Errno(rawValue: errno), "make the device node", path: path)
        }
    }

    @Test(.enabled(if: geteuid() == 0, "mknod needs root"))
    func aCharacterDeviceIsWrittenThroughAndStaysADevice() throws {
        let scratch = try Scratch()
        let device = scratch.path + "/null"
        try Self.makeNullDevice(device)
        let before = try #require(try FileSystemPaths.status(atPath: device))
        #expect(try OutputDestination.of(path: device) == .stream(before))
        try FileSystemPaths.writeOutput(toPath: device) { file throws(FileSystemError) in try file.writeFully(Data("gone".utf8)) }
        let after = try #require(try FileSystemPaths.status(atPath: device))
        #expect(after.isCharacterDevice && after.isSameFile(as: before))
        #expect(try scratch.temporaries().isEmpty)
    }

    @Test(.enabled(if: geteuid() == 0, "mknod needs root"))
    func theAtomicReplaceItselfNeverRenamesOverADevice() throws {
        let scratch = try Scratch()
        try Self.makeNullDevice(scratch.path + "/null")
        for durability in [Durability.none, .fileOnly, .full] {
            #expect {
                try scratch.directory.writeAtomically(Data("x".utf8), to: "null", options: AtomicWriteOptions(durability: durability))
            } throws: { error in
                let failure = error as? FileSystemError
                return failure?.path == "null" && failure?.operation.contains("a character device") == true
            }
        }
        #expect(try scratch.directory.status(of: "null").isCharacterDevice)
        #expect(try scratch.temporaries().isEmpty)
    }

    @Test func aFIFOFeedsItsReaderAndStaysAFIFO() throws {
        let scratch = try Scratch()
        let fifo = scratch.path + "/pipe"
        #expect(mkfifo(fifo, 0o600) == 0)
        // The reader opens the FIFO on its own thread, as the process at
        // the other end of `-o fifo` would; the writer waits for it.
        let reader = BackgroundRead(fifo)
        let text = String(repeating: "line of output\n", count: 10_000)
        try FileSystemPaths.writeOutput(toPath: fifo) { file throws(FileSystemError) in try file.writeFully(Data(text.utf8)) }
        #expect(try reader.wait() == Data(text.utf8))
        #expect(try #require(try FileSystemPaths.status(atPath: fifo)).isFIFO)
        #expect(try scratch.temporaries().isEmpty)
    }

    @Test func aLinkToAFIFOIsWrittenThroughNotReplaced() throws {
        let scratch = try Scratch()
        #expect(mkfifo(scratch.path + "/pipe", 0o600) == 0)
        try scratch.link("out", to: "pipe")
        let fifo = scratch.path + "/pipe"
        let reader = BackgroundRead(fifo)
        try FileSystemPaths.writeOutput(toPath: scratch.path + "/out") { file throws(FileSystemError) in
            try file.writeFully(Data("through".utf8))
        }
        #expect(try reader.wait() == Data("through".utf8))
        #expect(try scratch.directory.status(of: "out").isSymbolicLink)
        #expect(try scratch.directory.status(of: "pipe").isFIFO)
    }

    @Test func aSocketIsConnectedAndWrittenThrough() throws {
        let scratch = try Scratch()
        let path = scratch.path + "/socket"
        let listener = try LocalListener(path: path)
        let accepted = BackgroundRead { try listener.acceptAndReadAll() }
        try FileSystemPaths.writeOutput(toPath: path) { file throws(FileSystemError) in try file.writeFully(Data("hello".utf8)) }
        #expect(try accepted.wait() == Data("hello".utf8))
        #expect(try #require(try FileSystemPaths.status(atPath: path)).isSocket)
    }

    @Test func aRegularFileIsReplacedAtomicallyThroughItsLink() throws {
        let scratch = try Scratch()
        try scratch.write("old", to: "data.txt", permissions: 0o640)
        try scratch.link("link.txt", to: "data.txt")
        #expect(try OutputDestination.of(path: scratch.path + "/link.txt") == .replacedFile(path: scratch.path + "/data.txt"))
        try FileSystemPaths.writeOutput(toPath: scratch.path + "/link.txt") { file throws(FileSystemError) in
            try file.writeFully(Data("new".utf8))
        }
        #expect(try scratch.read("data.txt") == "new")
        #expect(try scratch.directory.status(of: "link.txt").isSymbolicLink)
        #expect(try scratch.directory.status(of: "data.txt").permissions == 0o640)
    }

    @Test func aNewNameIsCreatedAndADirectoryOrALinkLoopIsRefused() throws {
        let scratch = try Scratch()
        try FileSystemPaths.writeOutput(toPath: scratch.path + "/new.txt") { file throws(FileSystemError) in
            try file.writeFully(Data("made".utf8))
        }
        #expect(try scratch.read("new.txt") == "made")
        try scratch.directory.makeDirectory("folder")
        #expect(throws: FileSystemError.self) {
            try FileSystemPaths.writeOutput(toPath: scratch.path + "/folder") { _ throws(FileSystemError) in }
        }
        try scratch.link("a", to: "b")
        try scratch.link("b", to: "a")
        #expect {
            try FileSystemPaths.writeOutput(toPath: scratch.path + "/a") { _ throws(FileSystemError) in }
        } throws: { ($0 as? FileSystemError)?.isLoop == true }
    }
}

/// A read made on a Dispatch thread, never on Swift's cooperative pool: a
/// FIFO's open blocks until the other end opens, and a blocked pool
/// thread could be the one the writer's test needs.
private final class BackgroundRead: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    private var result: Result<Data, any Error> = .success(Data())

    init(_ read: @escaping @Sendable () throws -> Data) {
        DispatchQueue.global().async { [self] in
            result = Result { try read() }
            done.signal()
        }
    }

    convenience init(_ fifo: String) {
        self.init {
            let input = try FileDescriptor.open(atPath: fifo, .readOnly)
            defer { input.closeQuietly() }
            return try input.readToEnd()
        }
    }

    /// What the read gave, once it is done (the semaphore orders the write before this read).
    func wait() throws -> Data {
        done.wait()
        return try result.get()
    }
}

/// A listening local stream socket that accepts one connection and reads
/// it to its end.
private struct LocalListener: Sendable {
    let descriptor: Int32

    init(path: String) throws {
        #if canImport(Glibc)
        descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        #else
        descriptor = socket(AF_UNIX, SOCK_STREAM, 0)
        #endif
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: Array(path.utf8) + [0])
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard descriptor >= 0, bound == 0, listen(descriptor, 1) == 0 else {
            throw FileSystemError(Errno(rawValue: errno), "listen on", path: path)
        }
    }

    func acceptAndReadAll() throws -> Data {
        defer { close(descriptor) }
        let connection = accept(descriptor, nil, nil)
        guard connection >= 0 else { throw FileSystemError(Errno(rawValue: errno), "accept on", path: "") }
        let stream = FileDescriptor(rawValue: connection)
        defer { stream.closeQuietly() }
        return try stream.readToEnd()
    }
}
