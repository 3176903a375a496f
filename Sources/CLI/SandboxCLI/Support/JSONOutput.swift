import Foundation
import PropertyList

/// The one way the `sandbox` commands write JSON (every `--json`, `archive
/// json`): PropertyList's JSON writer, pretty printed (two spaces a level,
/// `"key": value`), keys sorted, slashes as they are, dates in ISO 8601
/// (UTC), data in base64, and a final newline.
enum JSONOutput {
    /// `value` as JSON: a ``PropertyListValue`` as it is, any other value as
    /// ``PropertyListValueEncoder`` makes it. Nesting deeper than
    /// `maximumDepth` throws.
    static func encode(_ value: some Encodable,
                       maximumDepth: Int = PropertyListLimits.default.maximumDepth) throws -> Data {
        let tree = try (value as? PropertyListValue) ?? PropertyListValueEncoder(maximumDepth: maximumDepth).encode(value)
        let options = PropertyListWriteOptions(sortsKeys: true, maximumDepth: maximumDepth)
        return try tree.encoded(as: .json, options: options) + Data("\n".utf8)
    }

    /// Writes `value` as JSON to standard output.
    static func print(_ value: some Encodable) throws {
        try FileOutput.writeToStandardOutput(encode(value))
    }
}
