import GRDB

enum GRDBHelpers {
    static func queue(_ path: String) throws -> DatabaseQueue {
        try DatabaseQueue(path: path)
    }
}
