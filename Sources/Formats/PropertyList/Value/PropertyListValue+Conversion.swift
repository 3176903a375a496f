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

    /// ``convert(_:from:to:limits:options:)`` handing the output to `write`
    /// in pieces, in order, instead of returning it: the same bytes, and for
    /// an input either refuses, the same error.
    ///
    /// From binary to XML the pieces of a large document are made on two
    /// threads while `write` runs, so writing a file overlaps converting;
    /// other conversions make the whole output, then call `write` once.
    /// Every limit (depth, object count, output size) is decided before the
    /// first call of `write`, but a string the XML writer refuses (a
    /// control character, say) may fail the conversion after part of the
    /// output was written: write to somewhere the caller can discard, such
    /// as an atomic replace's temporary file. `write` is called on any
    /// thread, one call at a time; an error it throws stops the conversion
    /// and is rethrown.
    public static func convert(_ data: Data, from source: PropertyListFormat, to target: PropertyListFormat,
                               limits: PropertyListLimits = .default, options: PropertyListWriteOptions = .init(),
                               into write: (UnsafeRawBufferPointer) throws -> Void) throws {
        if source == .binary, target == .xml,
           try data.withUnsafeBytes({ bytes in
               try BinaryPropertyListReader(limits: limits).streamXML(bytes: bytes, options: options, into: write)
           }) {
            return
        }
        try decode(data, as: source, limits: limits).encoded(as: target, options: options).withUnsafeBytes { try write($0) }
    }
}
