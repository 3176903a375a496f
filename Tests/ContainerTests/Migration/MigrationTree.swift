import Container
import Crypto
import Foundation
import TestSupport

/// A `Documents` tree for the migration tests: files of random sizes in
/// nested directories, an empty directory, and links (inside the
/// container, out of it, dangling) that must move as links. ``expected``
/// holds every item's SHA-256 (or link text), by Documents-relative path.
struct MigrationTree {
    /// Path → "file <sha256>", "link -> <target>" or "directory".
    var expected: [String: String] = [:]

    /// Builds the tree in `container`'s Documents.
    static func make(in container: AppContainer, files: Int, directories: Int = 12, seed: UInt64 = 1) throws -> MigrationTree {
        var generator = SeededGenerator(seed: seed)
        var tree = MigrationTree()
        var folders: [String] = [""]
        for index in 0..<directories {
            let parent = folders[Int.random(in: 0..<folders.count, using: &generator)]
            let folder = parent.isEmpty ? "dir\(index)" : parent + "/dir\(index)"
            try container.createDirectory("Documents/" + folder)
            tree.expected[folder] = "directory"
            folders.append(folder)
        }
        try container.createDirectory("Documents/empty")
        tree.expected["empty"] = "directory"
        for index in 0..<files {
            let folder = folders[Int.random(in: 0..<folders.count, using: &generator)]
            let path = folder.isEmpty ? "file\(index).bin" : folder + "/file\(index).bin"
            var bytes = [UInt8](repeating: 0, count: Int.random(in: 0...4096, using: &generator))
            for offset in bytes.indices { bytes[offset] = UInt8.random(in: 0...255, using: &generator) }
            let data = Data(bytes)
            try container.writeAtomically(data, to: "Documents/" + path, durability: .none)
            tree.expected[path] = Self.describe(data)
        }
        let links = ["link-inside": "file0.bin", "link-out": "/etc/passwd", "link-dangling": "no/such/file",
                     "dir0/link-up": "../../Library", "link-dir": "dir0"]
        for (name, target) in links {
            try FileManager.default.createSymbolicLink(atPath: container.url(forRelativePath: "Documents/" + name).path,
                                                       withDestinationPath: target)
            tree.expected[name] = "link -> " + target
        }
        return tree
    }

    static func describe(_ data: Data) -> String {
        "file " + SHA256.hash(data: data).map { String(format: "%02x", $0) }.joined()
    }

    /// What is under `directory` of the container (links not followed),
    /// leaving out the migration journal's directory.
    static func scan(_ container: AppContainer, _ directory: String) throws -> [String: String] {
        var found: [String: String] = [:]
        let base = container.url(forRelativePath: directory)
        func walk(_ relative: String) throws {
            let url = relative.isEmpty ? base : base.appendingPathComponent(relative)
            for name in try FileManager.default.contentsOfDirectory(atPath: url.path) {
                if relative.isEmpty && name == ".com.apple.sandbox.migration" { continue }
                let path = relative.isEmpty ? name : relative + "/" + name
                let item = base.appendingPathComponent(path)
                let type = try FileManager.default.attributesOfItem(atPath: item.path)[.type] as? FileAttributeType
                switch type {
                case .typeSymbolicLink?:
                    found[path] = "link -> " + (try FileManager.default.destinationOfSymbolicLink(atPath: item.path))
                case .typeDirectory?:
                    found[path] = "directory"
                    try walk(path)
                default:
                    found[path] = describe(try Data(contentsOf: item))
                }
            }
        }
        try walk("")
        return found
    }
}
