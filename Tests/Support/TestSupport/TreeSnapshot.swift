import Foundation

/// An exact picture of a tree, to prove that something left it alone:
/// every entry under a root (links not followed) with its kind,
/// permissions, and contents or link target, by relative path.
public enum TreeSnapshot {
    /// The picture of the tree at `root` ("" is the root itself).
    public static func take(_ root: URL) throws -> [String: String] {
        var result: [String: String] = [:]
        func walk(_ url: URL, _ relative: String) throws {
            let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
            let mode = String((attributes[.posixPermissions] as? NSNumber)?.intValue ?? -1, radix: 8)
            switch attributes[.type] as? FileAttributeType {
            case .typeSymbolicLink?:
                result[relative] = "link -> " + (try FileManager.default.destinationOfSymbolicLink(atPath: url.path))
            case .typeDirectory?:
                result[relative] = "directory \(mode)"
                for name in try FileManager.default.contentsOfDirectory(atPath: url.path) {
                    try walk(url.appendingPathComponent(name), relative.isEmpty ? name : relative + "/" + name)
                }
            default:
                result[relative] = "file \(mode) " + (try Data(contentsOf: url)).base64EncodedString()
            }
        }
        try walk(root, "")
        return result
    }
}
