import FileSystem
import Foundation
import SystemPackage

/// A fresh directory under the system's temporary directory, held open,
/// removed with everything in it when the value goes away.
final class Scratch {
    let path: String
    let directory: FileDescriptor

    init(_ label: String = #function) throws {
        let name = "fs-tests-\(label.filter { $0.isLetter || $0.isNumber })-\(UInt64.random(in: 0...UInt64.max))"
        path = NSTemporaryDirectory() + "/" + name
        try FileSystemPaths.makeDirectories(atPath: path, permissions: 0o700)
        directory = try FileDescriptor.openDirectory(atPath: path)
    }

    deinit {
        directory.closeQuietly()
        _ = try? FileSystemPaths.removeTree(atPath: path)
    }

    /// Writes `text` to the relative path `name`, making its directories.
    func write(_ text: String, to name: String, permissions: UInt32 = 0o644) throws {
        let (parent, _) = FileSystemPaths.split(path + "/" + name)
        try FileSystemPaths.makeDirectories(atPath: parent)
        let fd = try FileDescriptor.open(atPath: path + "/" + name, .writeOnly, options: [.create, .truncate],
                                         permissions: permissions)
        defer { fd.closeQuietly() }
        try fd.writeFully(Data(text.utf8))
        try fd.setPermissions(permissions)
    }

    /// The text of the relative path `name`, or nil if it is missing.
    func read(_ name: String) throws -> String? {
        try FileSystemPaths.readFile(atPath: path + "/" + name).map { String(decoding: $0, as: UTF8.self) }
    }

    /// Makes the symbolic link `name` with `target` as its text.
    func link(_ name: String, to target: String) throws {
        try directory.makeSymbolicLink(name, target: target)
    }

    /// Names of leftover temporary files in the directory `name`.
    func temporaries(in name: String = "") throws -> [String] {
        try FileSystemPaths.entries(atPath: name.isEmpty ? path : path + "/" + name)
            .filter { FileDescriptor.isTemporaryName($0) }
    }
}

/// The text of an open file from its start.
func text(of fd: FileDescriptor) throws -> String {
    String(decoding: try fd.read(count: 1 << 16, at: 0), as: UTF8.self)
}
