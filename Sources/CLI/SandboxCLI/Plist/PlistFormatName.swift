import ArgumentParser
import PropertyList

/// A file format named on the command line the way `plutil` names it.
enum PlistFormatName: String, CaseIterable, Sendable, ExpressibleByArgument {
    case xml1, binary1, json, openstep

    /// Accepts plutil's spellings, and also `openStep` as plutil's own code spells it.
    init?(argument: String) {
        if argument == "openStep" {
            self = .openstep
        } else {
            self.init(rawValue: argument)
        }
    }

    /// The library's format.
    var format: PropertyListFormat {
        switch self {
        case .xml1: .xml
        case .binary1: .binary
        case .json: .json
        case .openstep: .openStep
        }
    }
}

/// What `-extract` writes: a property list in some format, or the value as plain text.
enum PlistExtractFormat: Hashable, Sendable {
    /// A complete property list holding only the extracted value.
    case file(PlistFormatName)
    /// The value as plain text (see ``PlistRawText``).
    case raw

    /// Parses `xml1`, `binary1`, `json`, `openstep` or `raw`.
    init?(argument: String) {
        if argument == "raw" {
            self = .raw
        } else if let name = PlistFormatName(argument: argument) {
            self = .file(name)
        } else {
            return nil
        }
    }

    /// The names accepted, for messages.
    static let allNames = PlistFormatName.allCases.map(\.rawValue) + ["raw"]
}
