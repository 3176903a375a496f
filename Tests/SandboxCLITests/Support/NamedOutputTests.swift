#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import PropertyList
import TestSupport
import Testing

/// Every command that writes a named output (`plist -o`, `plist -convert`
/// in place, `defaults export`, `audit --html`) follows one rule: a
/// regular file is replaced atomically, a character device or a FIFO is
/// written through and stays what it was. Run as root, as the attack was:
/// the device is a private node made with `mknod`, never `/dev/null`.
@Suite struct NamedOutputTests {
    private func makeNullDevice(in directory: TemporaryDirectory) throws -> String {
        let path = directory.url.appendingPathComponent("null").path
        try #require(mknod(path, S_IFCHR | 0o666, dev_t((1 << 8) | 3)) == 0, "mknod: \(errno)")
        return path
    }

    private func isCharacterDevice(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFCHR
    }

    @Test(.enabled(if: geteuid() == 0, "mknod needs root"))
    func plistOutputToADeviceLeavesTheDevice() throws {
        let directory = try TemporaryDirectory()
        try directory.write(PlistSamples.binary(PlistSamples.jsonSafe), to: "in.plist")
        let device = try makeNullDevice(in: directory)
        for arguments in [["-convert", "json", "-o", device, "in.plist"], ["-convert", "xml1", "-o", device, "in.plist"],
                          ["-extract", "Name", "raw", "-o", device, "in.plist"]] {
            let result = try SandboxProcess.run(arguments, in: directory.url)
            #expect(result.status == 0, "\(arguments): \(result.standardError)")
            #expect(isCharacterDevice(device), "\(arguments) replaced the device")
        }
        let written = try SandboxProcess.run(["write", "--container", "data", "com.example.app", "A", "-int", "1"],
                                             in: directory.url, subcommand: "defaults")
        #expect(written.status == 0, "\(written.standardError)")
        let exported = try SandboxProcess.run(["export", "--container", "data", "com.example.app", device],
                                              in: directory.url, subcommand: "defaults")
        #expect(exported.status == 0, "\(exported.standardError)")
        #expect(isCharacterDevice(device))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path).sorted().filter { $0.hasPrefix(".sb-") }.isEmpty)
    }

    @Test func plistOutputToAFIFOFeedsItsReader() throws {
        let directory = try TemporaryDirectory()
        try directory.write(PlistSamples.binary(), to: "in.plist")
        let fifo = directory.url.appendingPathComponent("pipe").path
        try #require(mkfifo(fifo, 0o600) == 0)
        // Read on a Dispatch thread: the open blocks until the writer's.
        let done = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var read = Data()
        DispatchQueue.global().async {
            if let handle = FileHandle(forReadingAtPath: fifo) { read = handle.readDataToEndOfFile() }
            done.signal()
        }
        let result = try SandboxProcess.run(["-convert", "xml1", "-o", "pipe", "in.plist"], in: directory.url)
        #expect(result.status == 0, "\(result.standardError)")
        if result.status != 0 {
            // The command never opened the FIFO: let the reader's open end.
            let writer = open(fifo, O_WRONLY | O_NONBLOCK)
            if writer >= 0 { close(writer) }
        }
        done.wait()
        #expect(try PropertyListValue(data: read) == PlistSamples.document)
        var info = stat()
        #expect(lstat(fifo, &info) == 0 && info.st_mode & S_IFMT == S_IFIFO)
    }

    @Test func aDirectoryAsOutputIsRefusedWithWhatAndWhere() throws {
        let directory = try TemporaryDirectory()
        try directory.write(PlistSamples.binary(), to: "in.plist")
        try FileManager.default.createDirectory(at: directory.url.appendingPathComponent("folder"), withIntermediateDirectories: false)
        let result = try SandboxProcess.run(["-convert", "xml1", "-o", "folder", "in.plist"], in: directory.url)
        #expect(result.status != 0)
        #expect(result.standardError.contains("folder"), "\(result.standardError)")
    }
}
