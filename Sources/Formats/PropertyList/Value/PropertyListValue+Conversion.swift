import Foundation

extension PropertyListValue {
    /// Converts `data`, a property list in `source` format, to `target`:
    /// exactly the bytes of ``decode(_:as:limits:)`` then
    /// ``encoded(as:options:)``, and for an input either refuses, the same
    /// error.
    ///
    /// From binary to XML (the common conversion) the value is never built:
    /// the file's objects are validated, counted against the writer's
    /// limits (shared sub-trees once each, so a small file that expands
    /// past `maximumOutputSize` is refused before anything is allocated)
    /// and written as XML straight into the output. A dictionary that
    /// repeats a key, sorted keys, or a writer depth limit below the
    /// reader's are decoded, as is every other pair of formats: a binary
    /// file cannot be written before every object is known (its offset
    /// table, reference width and shared scalars come from the whole tree).
    public static func convert(_ data: Data, from source: PropertyListFormat, to target: PropertyListFormat,
                               limits: PropertyListLimits = .default,
                               options: PropertyListWriteOptions = .init()) throws -> Data {
        if source == .binary, target == .xml,
           let streamed = try data.withUnsafeBytes({ bytes in
               try BinaryPropertyListReader(limits: limits).streamXML(bytes: bytes, options: options)
           }) {
            return streamed
        }
        return try decode(data, as: source, limits: limits).encoded(as: target, options: options)
    }
}
