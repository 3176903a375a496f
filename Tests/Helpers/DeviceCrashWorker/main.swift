// `device-crash-worker`: the process the device's crash-consistency test
// kills with SIGKILL at random moments.
//
//   device-crash-worker loop <device> <bundle v1> <bundle v2> <other bundle>
//       Forever: update the app to v2, install the other app, update back
//       to v1, uninstall the other app (each skipped if already done).
//       Prints "ready" once it is open, then "done" after each operation.
//
//   device-crash-worker backup <device> <backups dir>
//       Backs the device up into <backups dir> and, once payloads are being
//       copied into the staging folder, prints "copying" and waits there
//       to be killed (the test of an interrupted backup's staging folder).
//
//   device-crash-worker backup-full <device> <backups dir>
//       Backs the device up into <backups dir>, a small file system of its
//       own, and fills that file system at the first progress report, so
//       that later payloads meet ENOSPC. Prints the error's type, whether
//       it is `isDiskFull`, whether a `FileSystemError` with ENOSPC is in
//       its chain, and whether the staging folder was cleaned up.
import CodedErrors
import Device
import FileSystem
import Foundation
import TestSupport

let arguments = CommandLine.arguments
func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data((message + "\n").utf8))
    exit(2)
}

if arguments.count == 4, arguments[1] == "backup" {
    do {
        let device = try Device.open(at: URL(fileURLWithPath: arguments[2]))
        try device.backUp(to: URL(fileURLWithPath: arguments[3])) { _ in
            FileHandle.standardOutput.write(Data("copying\n".utf8))
            while true { Thread.sleep(forTimeInterval: 60) }
        }
        fail("device-crash-worker: the backup finished without reporting progress")
    } catch {
        fail("device-crash-worker: \(error)")
    }
}

if arguments.count == 4, arguments[1] == "backup-full" {
    let backups = arguments[3]
    let device: Device
    do { device = try Device.open(at: URL(fileURLWithPath: arguments[2])) } catch { fail("device-crash-worker: \(error)") }
    do {
        // Each report fills what the last one left (nothing, after the first).
        try device.backUp(to: URL(fileURLWithPath: backups)) { _ in DiskFiller.fill(backups) }
        fail("device-crash-worker: the backup finished on a full disk")
    } catch {
        FileHandle.standardError.write(Data("\(error)\n".utf8))
        let noSpace = error.firstCause(of: FileSystemError.self)?.errno == .noSpace
        // What is left besides the filler and the lock file (`.<UDID>.lock`).
        let left = (try? FileManager.default.contentsOfDirectory(atPath: backups))?
            .filter { $0 != "filler" && !$0.hasPrefix(".") } ?? ["?"]
        print("\(type(of: error)) \(error.isDiskFull) \(noSpace) \(left.isEmpty ? "clean" : left.sorted().joined(separator: ","))")
    }
    exit(0)
}

guard arguments.count == 6, arguments[1] == "loop" else {
    fail("usage: device-crash-worker loop <device> <bundle v1> <bundle v2> <other bundle>")
}
let versionOne = URL(fileURLWithPath: arguments[3])
let versionTwo = URL(fileURLWithPath: arguments[4])
let other = URL(fileURLWithPath: arguments[5])
do {
    let device = try Device.open(at: URL(fileURLWithPath: arguments[2]))
    // Tell the test that start-up is over, so its kill lands in the loop.
    FileHandle.standardOutput.write(Data("ready\n".utf8))
    // "done" after each operation lets the test wait out a number of them
    // before its random delay, so its kills reach every phase of the loop
    // however slow the machine is.
    let done = Data("done\n".utf8)
    while true {
        try device.update(bundleAt: try device.app("com.example.notes").version == "1" ? versionTwo : versionOne)
        FileHandle.standardOutput.write(done)
        if try device.installedBundleIDs().contains("com.example.other") {
            try device.uninstall("com.example.other", keychainPolicy: .delete)
        } else {
            try device.install(bundleAt: other)
        }
        FileHandle.standardOutput.write(done)
    }
} catch {
    fail("device-crash-worker: \(error)")
}
