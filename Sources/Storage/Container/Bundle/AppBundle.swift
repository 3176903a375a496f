import Foundation
import PropertyList

/// A read-only app bundle (`Notes.app`): its `Info.plist`, resources with
/// `pathForResource:ofType:` lookup and localization, and a seal of SHA-256
/// hashes like `_CodeSignature/CodeResources`.
///
/// Reads go through a descriptor held on the bundle directory and resolve
/// beneath it, like the container's.
public struct AppBundle: Sendable {
    /// The bundle directory.
    public var url: URL
    /// The keys of `Info.plist` (binary or XML).
    public var info: BundleInfo

    let directory: ConfinedDirectory

    /// Opens a bundle and reads its `Info.plist`.
    public init(at url: URL) throws {
        self.url = url
        directory = try ConfinedDirectory(openingAt: url, resolver: .automatic, caseCheck: .automatic)
        let data = try Self.read(directory, try ContainerPath("Info.plist"))
        let value: PropertyListValue
        do { value = try PropertyListValue(data: data) }
        catch { throw ContainerError(.corrupt, path: "Info.plist", "Info.plist is not a property list").caused(by: error) }
        info = try BundleInfo(value)
    }

    /// The bytes of a file in the bundle (bundle-relative path).
    public func contents(ofRelativePath path: String) throws -> Data {
        try Self.read(directory, try ContainerPath(path))
    }

    static func read(_ directory: ConfinedDirectory, _ path: ContainerPath) throws(ContainerError) -> Data {
        try directory.readFile(path, mappedAbove: ContainerOptions.default.mappedReadThreshold)
    }
}
