import Foundation

/// The names a client sends (accounts, device names, UDIDs), checked and
/// put in one form before the ledger sees them.
///
/// - NFC: "é" and "e\u{301}" are one name, so they are one account.
/// - 1 to 128 Unicode scalars as sent (as JSON Schema's `maxLength` counts them).
/// - No control characters (C0, DEL, C1), line or paragraph separators, or
///   bidirectional controls (U+202A–U+202E, U+2066–U+2069, U+200E, U+200F,
///   U+061C): they would forge what a log or a terminal shows.
/// - An account name has no `/`, `\` or `..`: it appears in routes and
///   object keys' neighbours, where it must never read as a path.
enum CloudNames {
    /// What a name is used for, which decides the rules.
    enum Kind: String {
        case account = "account name"
        case deviceName = "device name"
        case udid = "udid"
    }

    /// The NFC form of `name`, or a `badRequest` that says what is wrong and where.
    static func normalized(_ name: String, _ kind: Kind) throws(CloudServiceError) -> String {
        // The bound counts the name as sent, as the document's maxLength
        // does: a few scalars (U+0958 and its kin) grow under NFC.
        let count = name.unicodeScalars.count
        guard count >= 1, count <= 128 else {
            throw CloudServiceError(.badRequest, "the \(kind.rawValue) must be 1 to 128 characters, not \(count)")
        }
        let form = name.precomposedStringWithCanonicalMapping
        for (offset, scalar) in form.unicodeScalars.enumerated() where refused(scalar) {
            throw CloudServiceError(.badRequest, "the \(kind.rawValue) has a control character U+\(hex(scalar)) at position \(offset)")
        }
        if kind == .account {
            if let slash = form.unicodeScalars.firstIndex(where: { $0 == "/" || $0 == "\\" }) {
                let offset = form.unicodeScalars.distance(from: form.unicodeScalars.startIndex, to: slash)
                throw CloudServiceError(.badRequest, "the account name has a path separator at position \(offset)")
            }
            if form.contains("..") {
                throw CloudServiceError(.badRequest, "the account name contains \"..\"")
            }
        }
        return form
    }

    static func refused(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .control, .lineSeparator, .paragraphSeparator: true
        default: scalar.properties.isBidiControl
        }
    }

    static func hex(_ scalar: Unicode.Scalar) -> String {
        let digits = String(scalar.value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
}
