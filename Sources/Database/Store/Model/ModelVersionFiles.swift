import Foundation
import PropertyList

/// The files beside an `.xcdatamodeld` bundle's versions.
public enum ModelVersionFiles {
    /// The current version an `.xccurrentversion` file names
    /// (`_XCCurrentVersionName`), without its `.xcdatamodel` extension:
    /// `"CoreDataMigration_Example 4"`.
    public static func currentVersionName(ofFile path: String) throws(ModelError) -> String {
        try currentVersionName(data: ModelFiles.read(path), path: path)
    }

    /// The current version named by an `.xccurrentversion` property list's bytes.
    public static func currentVersionName(data: Data, path: String? = nil) throws(ModelError) -> String {
        let value: PropertyListValue
        do { value = try PropertyListValue.decode(data).value } catch {
            throw ModelError(.invalidMetadata, "not a property list", path: path).caused(by: error)
        }
        guard let name = value["_XCCurrentVersionName"]?.stringValue, !name.isEmpty else {
            throw ModelError(.invalidMetadata, "no _XCCurrentVersionName string", path: path)
        }
        return name.hasSuffix(".xcdatamodel") ? String(name.dropLast(".xcdatamodel".count)) : name
    }
}
