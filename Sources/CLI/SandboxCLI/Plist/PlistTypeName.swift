import ArgumentParser
import PropertyList

/// The type names `plutil -type` prints and `-expect` accepts.
///
/// Reals of either precision are `float`, as in plutil; keyed-archive UIDs,
/// which plutil cannot name, are `uid`.
enum PlistTypeName: String, CaseIterable, Sendable, ExpressibleByArgument {
    case bool, integer, float, string, date, data, dictionary, array, uid

    /// The type of `value`.
    init(of value: PropertyListValue) {
        switch value {
        case .bool: self = .bool
        case .integer: self = .integer
        case .real, .float: self = .float
        case .string: self = .string
        case .date: self = .date
        case .data: self = .data
        case .dictionary: self = .dictionary
        case .array: self = .array
        case .uid: self = .uid
        }
    }

    /// The name with its indefinite article, for messages: "an integer".
    var withArticle: String {
        switch self {
        case .integer, .array: "an \(rawValue)"
        default: "a \(rawValue)"
        }
    }
}
