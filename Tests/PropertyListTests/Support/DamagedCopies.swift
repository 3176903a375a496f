import Foundation

/// Damaged copies of a document, for checking that a validator agrees with
/// its decoder on every one of them.
enum DamagedCopies {
    /// Calls `body` with every prefix of `data`, then with every copy of it
    /// with one byte replaced by each of `replacements(byte)`, each with a
    /// name for messages.
    static func forEach(of data: Data, named name: String, replacements: (UInt8) -> [UInt8], _ body: (Data, String) -> Void) {
        for length in 0..<data.count { body(data.prefix(length), "\(name) cut at \(length)") }
        for index in 0..<data.count {
            for replacement in replacements(data[index]) {
                var corrupt = data
                corrupt[index] = replacement
                body(corrupt, "\(name) with byte \(index) = \(replacement)")
            }
        }
    }
}
