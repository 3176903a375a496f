/// `archive print|json` refused an archive whose output would be over its
/// limit: shared plain values are written out at each use, so a small
/// hostile archive could otherwise print gigabytes.
struct ArchiveOutputTooLarge: Error, CustomStringConvertible {
    var limit: Int
    var unit = "bytes"

    var description: String {
        "the archive's output would be over \(limit) \(unit) (its shared values repeat when written out); nothing was printed"
    }
}
