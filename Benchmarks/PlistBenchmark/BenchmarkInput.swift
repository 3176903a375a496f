import Foundation

/// One generated document in both formats, read from the data directory.
struct BenchmarkInput {
    /// "large" or "small": also the file stem (`large.bplist`, `large.xml`).
    var name: String
    /// plistlib's binary encoding of the document.
    var binary: Data
    /// plistlib's XML encoding of the document.
    var xml: Data
    /// How many repetitions the best time is taken from.
    var repetitions: Int

    init(name: String, directory: URL, repetitions: Int) throws {
        self.name = name
        self.repetitions = repetitions
        binary = try Data(contentsOf: directory.appendingPathComponent("\(name).bplist"))
        xml = try Data(contentsOf: directory.appendingPathComponent("\(name).xml"))
    }

    /// The two encodings with their labels, binary first.
    var encodings: [(format: String, data: Data)] { [("binary", binary), ("xml", xml)] }
}
