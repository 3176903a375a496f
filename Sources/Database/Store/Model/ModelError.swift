import CodedErrors
import FileSystem
import Foundation

/// Why a model, a cached model or a store's metadata could not be read:
/// what went wrong (``ModelErrorCode``) and where (the file, the line or
/// element, the archive object).
public typealias ModelError = CodedError<ModelErrorCode>

/// The kinds of failure of a ``ModelError``.
public enum ModelErrorCode: String, ErrorCode {
    public typealias Context = ModelErrorContext

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

    /// `<path>, line <n>, <element>: <message>`, with what is known of the place.
    public static func describe(_ error: ModelError) -> String {
        var place: [String] = []
        if let path = error.path { place.append(path) }
        if let line = error.line { place.append("line \(line)") }
        if let element = error.element { place.append(element) }
        return place.isEmpty ? error.message : "\(place.joined(separator: ", ")): \(error.message)"
    }
}

/// Where a ``ModelError`` was found.
public struct ModelErrorContext: Hashable, Sendable {
    /// The file read, when there is one.
    public var path: String?
    /// The line of an XML file.
    public var line: Int?
    /// The element (`entity Car`, `attribute color`) or archive object (`$objects[12]`).
    public var element: String?
}

extension ModelError {
    /// Creates an error.
    public init(_ code: Code, _ message: String, path: String? = nil, line: Int? = nil, element: String? = nil) {
        self.init(code, message, context: ModelErrorContext(path: path, line: line, element: element))
    }
}

enum ModelFiles {
    /// The bytes of the file at `path`, through the package's file-system module.
    static func read(_ path: String) throws(ModelError) -> Data {
        let data: Data?
        do throws(FileSystemError) {
            data = try FileSystemPaths.readFile(atPath: path)
        } catch {
            throw ModelError(.fileIO, "cannot read", path: path).caused(by: error)
        }
        guard let data else { throw ModelError(.fileIO, "no such file", path: path) }
        return data
    }
}
