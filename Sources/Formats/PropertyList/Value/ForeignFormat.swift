import Foundation

/// Files that are often taken for property lists but are not: recognized
/// by their magic number, so a reader says what the file is instead of
/// failing at its first byte as malformed OpenStep text.
public enum ForeignFormat: String, CaseIterable, Sendable {
    /// Interface Builder's compiled nib format (magic `NIBArchive`).
    case nibArchive
    /// Apple's asset catalog (`.car`; magic `BOMStore`).
    case bomStore

    var magic: String {
        switch self {
        case .nibArchive: "NIBArchive"
        case .bomStore: "BOMStore"
        }
    }

    /// What to call it in a message.
    public var displayName: String {
        switch self {
        case .nibArchive: "a NIBArchive file (Interface Builder's compiled nib format)"
        case .bomStore: "a BOMStore file (a compiled asset catalog)"
        }
    }

    /// The foreign format `data` starts with, if any.
    public static func detect(_ data: Data) -> ForeignFormat? {
        allCases.first { data.starts(with: Array($0.magic.utf8)) }
    }

    /// Throws ``PropertyListError/Code/unrecognizedFormat`` naming the
    /// format when `data` is one of these.
    static func refuse(_ data: Data, as format: PropertyListFormat) throws {
        guard let foreign = detect(data) else { return }
        throw PropertyListError(.unrecognizedFormat, format: nil, location: .byteOffset(0),
                                "this is \(foreign.displayName), not a property list")
    }
}
