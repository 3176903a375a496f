import Foundation

/// One entry of the generated document, as a `Codable` type for
/// `PropertyListDecoder` and `PropertyListEncoder` (see Benchmarks/Scripts/gen_data.py).
struct Entry: Codable {
    var name: String
    var id: Int64
    var score: Double
    var flag: Bool
    var date: Date
    var blob: Data
    var tags: [String]
    var scores: [Int]
}
