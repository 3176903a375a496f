import CacheManifest
import Container
import FileSystem
import Foundation
import PropertyList
import StorageAudit
import TestSupport
import Testing

/// A container with its bundle inside (`Fixture.app`), written through the
/// container's API, and the audit of it.
struct AuditFixture {
    static let bundleID = "com.example.fixture"
    let temp: TemporaryDirectory
    let container: AppContainer

    init() throws {
        temp = try TemporaryDirectory("audit")
        container = try AppContainer.create(at: temp.url.appendingPathComponent("container"), bundleName: "Fixture")
    }

    var root: String { container.root.standardizedFileURL.path }

    /// Writes `bytes` bytes (a pattern, so nothing is sparse) at `path`,
    /// making its folders.
    func write(_ path: String, bytes: Int) throws {
        let parent = (path as NSString).deletingLastPathComponent
        if !parent.isEmpty { try container.createDirectory(parent) }
        try container.writeAtomically(Data((0..<bytes).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }), to: path,
                                      durability: .none)
    }

    /// Writes `data` into the bundle, as an installer would (the container
    /// refuses writes there).
    func writeIntoBundle(_ path: String, _ data: Data) throws {
        try FileSystemPaths.writeAtomically(data, toPath: root + "/Fixture.app/" + path)
    }

    /// Gives the bundle an Info.plist and an executable, and seals it.
    func sealBundle() throws -> AppBundle {
        try writeIntoBundle("Info.plist", try Self.infoPlist(Self.bundleID, executable: "Fixture"))
        try writeIntoBundle("Fixture", Data("#!/bin/sh\n".utf8))
        let bundle = try AppBundle(at: container.root.appendingPathComponent("Fixture.app"))
        try bundle.seal()
        return bundle
    }

    /// A bundle's Info.plist, version 1.
    static func infoPlist(_ identifier: String, executable: String) throws -> Data {
        let info: PropertyListValue = ["CFBundleIdentifier": .string(identifier), "CFBundleVersion": .string("1"),
                                       "CFBundleExecutable": .string(executable)]
        return try info.encoded(as: .xml)
    }

    /// Records `paths` in a cache manifest, as a download would.
    func record(_ paths: [String]) throws {
        let manifest = try CacheManifest(container: container)
        try manifest.record(paths.map { CachedResource(path: $0, url: "https://example.com/" + $0, size: 1, sha256: "00", fetchedAt: 0) })
    }

    func audit(bundle: AppBundle? = nil, options: StorageAuditOptions = StorageAuditOptions()) throws -> AppStorageAudit {
        var auditor = StorageAuditor(options: options)
        return try auditor.audit(bundleID: Self.bundleID, container: container, bundle: bundle)
    }

    /// Runs a shell command in the container's root.
    func shell(_ command: String) throws {
        let result = try ChildProcess.run(URL(fileURLWithPath: "/bin/sh"), ["-c", command], in: container.root)
        #expect(result.status == 0, "\(command): \(result.standardError)")
    }

    /// `du -B1 -s` (with `apparent`, `--apparent-size`) of a container-relative path.
    func du(_ path: String, apparent: Bool = false) throws -> UInt64 {
        let arguments = ["-B1", "-s"] + (apparent ? ["--apparent-size"] : []) + [path.isEmpty ? "." : path]
        let result = try ChildProcess.run(URL(fileURLWithPath: "/usr/bin/du"), arguments, in: container.root)
        let field = result.output.split(whereSeparator: { $0 == "\t" || $0 == " " }).first.map(String.init) ?? ""
        return try #require(UInt64(field), "du \(arguments): \(result.output) \(result.standardError)")
    }

    /// The bytes of the blocks of one item itself (`stat -c %b`, × 512).
    func ownBlocks(_ path: String) throws -> UInt64 {
        let result = try ChildProcess.run(URL(fileURLWithPath: "/usr/bin/stat"), ["-c", "%b", path], in: container.root)
        return try #require(UInt64(result.output.trimmingCharacters(in: .whitespacesAndNewlines))) * 512
    }

    /// The findings of one rule.
    static func findings(_ audit: AppStorageAudit, _ rule: AuditRule) -> [StorageFinding] {
        audit.findings.filter { $0.rule == rule }
    }
}
