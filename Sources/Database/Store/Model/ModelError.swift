import FileSystem
import Foundation

/// Why a model, a cached model or a store's metadata could not be read:
/// what went wrong and where (the file, the line or element, the archive
/// object).
public struct ModelError: Error, Hashable, Sendable, CustomStringConvertible {
    public enum Code: String, Sendable, Hashable {
        /// The file could not be read.
        case fileIO
        /// The XML is not well-formed.
        case malformedXML
        /// An element lacks an attribute Core Data needs, or one has a value it does not know.
        case invalidElement
        /// The cached model's compressed bytes are corrupt or truncated.
        case corruptCompressedData
        /// The compressed bytes expand beyond the size allowed.
        case inflatedSizeLimit
        /// The keyed archive is unreadable.
        case malformedArchive
        /// The archive is well-formed but is not a model (wrong classes, missing fields, cycles where none may be).
        case invalidArchivedModel
        /// The store metadata is not the property list Core Data writes.
        case invalidMetadata
        /// The model refers to an entity, attribute or relationship it does not define.
        case unresolvedReference
    }

    public var code: Code
    public var message: String
    /// The file read, when there is one.
    public var path: String?
    /// The line of an XML file.
    public var line: Int?
    /// The element (`entity Car`, `attribute color`) or archive object (`$objects[12]`).
    public var element: String?

    public init(_ code: Code, _ message: String, path: String? = nil, line: Int? = nil, element: String? = nil) {
        self.code = code
        self.message = message
        self.path = path
        self.line = line
        self.element = element
    }

    public var description: String {
        var place: [String] = []
        if let path { place.append(path) }
        if let line { place.append("line \(line)") }
        if let element { place.append(element) }
        return place.isEmpty ? message : "\(place.joined(separator: ", ")): \(message)"
    }
}

enum ModelFiles {
    /// The bytes of the file at `path`, through the package's file-system module.
    static func read(_ path: String) throws(ModelError) -> Data {
        let data: Data?
        do throws(FileSystemError) {
            data = try FileSystemPaths.readFile(atPath: path)
        } catch {
            throw ModelError(.fileIO, "cannot read: \(error.reason)", path: path)
        }
        guard let data else { throw ModelError(.fileIO, "no such file", path: path) }
        return data
    }
}
