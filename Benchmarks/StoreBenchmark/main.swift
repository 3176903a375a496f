import FileSystem
import Foundation
import GRDB
import PredicateFormat
import Store

// Issue 16's benchmark (release build), each figure beside its anchor in
// the same run, on a store of 1,000,000 rows in Core Data's layout:
//   1. `name CONTAINS[c] %@`, sorted by name, first 50 rows: our fetch
//      request against the same query hand-written in GRDB;
//   2. a fetched-results controller's first fetch of the 100,000 matches with
//      batch size 20 against fetching all 100,000 objects: time, and peak
//      memory measured in a child process each;
//   3. inserting 100,000 objects in one save against GRDB inserts.
// Usage: store-benchmark WORK_DIR [rows=1000000]
//        store-benchmark --child controller|full STORE   (used by step 2)

func now() -> Double { Date().timeIntervalSince1970 }
func median(_ values: [Double]) -> Double { let s = values.sorted(); return s[s.count / 2] }

/// VmRSS and VmHWM of this process, in bytes.
func memory() -> (resident: Int, peak: Int) {
    // /proc files report a size of 0, so the file is read to its end.
    guard let data = FileHandle(forReadingAtPath: "/proc/self/status")?.readDataToEndOfFile() else { return (0, 0) }
    var resident = 0, peak = 0
    for line in String(decoding: data, as: UTF8.self).split(separator: "\n") {
        let fields = line.split(separator: " ", omittingEmptySubsequences: true)
        guard fields.count >= 2, let kilobytes = Int(fields[1]) else { continue }
        if line.hasPrefix("VmRSS:") { resident = kilobytes * 1024 }
        if line.hasPrefix("VmHWM:") { peak = kilobytes * 1024 }
    }
    return (resident, peak)
}

let model = ObjectModel(entities: [
    EntityDescription(name: "Item", attributes: [
        AttributeDescription(name: "name", type: .string),
        AttributeDescription(name: "value", type: .integer64),
        AttributeDescription(name: "created", type: .date),
    ]),
])
let search = "lamp"
let lampPredicate = try FormatPredicate(format: "name CONTAINS[c] %@", search)
let byName = [StoreSortDescriptor(keyPath: "name")]

let arguments = CommandLine.arguments
if arguments.count == 4, arguments[1] == "--child" {
    // Step 2, in its own process so its peak memory is its own.
    let store = try PersistentStore.open(atPath: arguments[3], model: model)
    _ = try store.count(FetchRequest(entityName: "Item", fetchLimit: 1))
    let before = memory()
    let start = now()
    var request = FetchRequest(entityName: "Item", predicate: lampPredicate, sortDescriptors: byName)
    let matches: Int
    if arguments[2] == "controller" {
        request.fetchBatchSize = 20
        let controller = FetchedResultsController(source: try FetchRequestResults(store: store, request: request), batchSize: 20)
        try controller.performFetch()
        for item in 0..<20 { _ = try controller.object(at: ResultsIndexPath(section: 0, item: item)) }
        matches = controller.snapshot.count
    } else {
        matches = try store.fetch(request).count
    }
    let elapsed = now() - start
    print("CHILD \(arguments[2]) matches \(matches) seconds \(elapsed) peakDelta \(memory().peak - before.resident)")
    exit(0)
}
guard arguments.count >= 2 else {
    print("usage: store-benchmark WORK_DIR [rows] [--spread]")
    exit(2)
}
let work = arguments[1]
let rowCount = arguments.count > 2 ? Int(arguments[2]) ?? 1_000_000 : 1_000_000
// --spread: the lamp names start with one of the other words ("Bear Desk
// lamp 123"), so the matches are spread through the sort order instead of
// all sorting after "Chair…" (about 225,000 rows in).
let spread = arguments.contains("--spread")
try FileSystemPaths.makeDirectories(atPath: work)
let storePath = work + (spread ? "/items-spread.sqlite" : "/items.sqlite")

// The store: created through the Store module (Core Data's tables and
// metadata), rows written with plain GRDB inserts; one name in ten
// contains "lamp" in some case, some with accents elsewhere in the name.
struct LCG { var state: UInt64; mutating func next() -> UInt64 { state = state &* 6364136223846793005 &+ 1442695040888963407; return state >> 33 } }
let words = ["Chair", "Table", "Mug", "Spork", "Bear", "Café", "Äpfel", "Tent", "Kite", "Rug", "Sofa", "Vase"]
let lamps = ["Desk lamp", "LAMP", "Lampshade", "floor Lamp", "lamp post"]
func name(_ index: Int, _ random: inout LCG) -> String {
    let number = random.next() % 100_000
    if index % 10 == 3 {
        let lamp = lamps[Int(random.next() % 5)]
        return spread ? "\(words[Int(random.next() % 12)]) \(lamp) \(number)" : "\(lamp) \(number)"
    }
    return "\(words[Int(random.next() % 12)]) \(words[Int(random.next() % 12)]) \(number)"
}
var existing = 0
if FileSystemPaths.exists(atPath: storePath), let store = try? PersistentStore.open(atPath: storePath, model: model) {
    existing = (try? store.count(FetchRequest(entityName: "Item"))) ?? 0
}
if existing != rowCount {
    for suffix in ["", "-wal", "-shm"] { try? FileSystemPaths.removeFile(atPath: storePath + suffix) }
    _ = try PersistentStore.create(atPath: storePath, model: model)
    let queue = try DatabaseQueue(path: storePath)
    var random = LCG(state: 16)
    let start = now()
    try queue.write { db in
        let insert = try db.makeStatement(sql: "INSERT INTO ZITEM (Z_PK, Z_ENT, Z_OPT, ZNAME, ZVALUE, ZCREATED) VALUES (?, 1, 1, ?, ?, ?)")
        for index in 1...rowCount {
            try insert.execute(arguments: [index, name(index, &random), Int(random.next() % 1000), 800_000_000.0 + Double(index)])
        }
        try db.execute(sql: "UPDATE Z_PRIMARYKEY SET Z_MAX = ? WHERE Z_ENT = 1", arguments: [rowCount])
        // An index on the sorted attribute, as a model marks it indexed; both sides use it.
        try db.execute(sql: "CREATE INDEX IF NOT EXISTS ZITEM_ZNAME_INDEX ON ZITEM (ZNAME)")
    }
    try queue.close()
    print(String(format: "made %d rows in %.1f s", rowCount, now() - start))
}

let store = try PersistentStore.open(atPath: storePath, model: model)
let anchor = try DatabaseQueue(path: storePath)
struct Item: FetchableRecord { var pk: Int64; var opt: Int64; var name: String?; var value: Int64?; var created: Double?
    init(row: Row) { pk = row[0]; opt = row[2]; name = row[3]; value = row[4]; created = row[5] } }

// 1. The first 50 matches, sorted.
var request = FetchRequest(entityName: "Item", predicate: lampPredicate, sortDescriptors: byName, fetchLimit: 50)
var ours: [Double] = [], grdb: [Double] = []
for _ in 0..<30 {
    var start = now()
    let objects = try store.fetch(request)
    ours.append(now() - start)
    start = now()
    let items = try anchor.read { db in
        try Item.fetchAll(db, sql: "SELECT Z_PK, Z_ENT, Z_OPT, ZNAME, ZVALUE, ZCREATED FROM ZITEM WHERE ZNAME LIKE ? ORDER BY ZNAME LIMIT 50",
                          arguments: ["%\(search)%"])
    }
    grdb.append(now() - start)
    guard objects.count == 50, items.count == 50 else { print("expected 50 rows, got \(objects.count) and \(items.count)"); exit(1) }
}
print(String(format: "RESULT contains[c] sorted first 50 of %d rows: ours median %.2f ms (best %.2f), hand-written GRDB median %.2f ms (best %.2f), ratio %.2fx",
             rowCount, median(ours) * 1000, ours.min()! * 1000, median(grdb) * 1000, grdb.min()! * 1000, median(ours) / median(grdb)))
print("SQL: \(try store.selectStatement(for: request, columns: "t0.*").sql)")

// 2. The controller against a full fetch, each in a child process.
func child(_ mode: String) throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
    process.arguments = ["--child", mode, storePath]
    let pipe = Pipe()
    process.standardOutput = pipe
    try process.run()
    let output = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return String(decoding: output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
}
for _ in 0..<3 {
    print("RESULT " + (try child("controller")))
    print("RESULT " + (try child("full")))
}

// 3. 100,000 inserts in one save against GRDB.
let insertPath = work + "/inserts.sqlite"
var saves: [Double] = [], grdbInserts: [Double] = []
for _ in 0..<3 {
    for suffix in ["", "-wal", "-shm"] { try? FileSystemPaths.removeFile(atPath: insertPath + suffix) }
    let fresh = try PersistentStore.create(atPath: insertPath, model: model)
    var random = LCG(state: 99)
    var start = now()
    let context = ObjectContext(store: fresh)
    for index in 1...100_000 {
        _ = try context.insert("Item", values: ["name": .string(name(index, &random)), "value": .integer(Int64(index)),
                                                "created": .date(Date(timeIntervalSinceReferenceDate: 800_000_000 + Double(index)))])
    }
    _ = try context.save()
    saves.append(now() - start)

    for suffix in ["", "-wal", "-shm"] { try? FileSystemPaths.removeFile(atPath: insertPath + suffix) }
    _ = try PersistentStore.create(atPath: insertPath, model: model)
    var configuration = Configuration()
    configuration.journalMode = .wal
    let pool = try DatabasePool(path: insertPath, configuration: configuration)
    random = LCG(state: 99)
    start = now()
    try pool.write { db in
        let insert = try db.makeStatement(sql: "INSERT INTO ZITEM (Z_PK, Z_ENT, Z_OPT, ZNAME, ZVALUE, ZCREATED) VALUES (?, 1, 1, ?, ?, ?)")
        for index in 1...100_000 {
            try insert.execute(arguments: [index, name(index, &random), index, 800_000_000.0 + Double(index)])
        }
        try db.execute(sql: "UPDATE Z_PRIMARYKEY SET Z_MAX = 100000 WHERE Z_ENT = 1")
    }
    grdbInserts.append(now() - start)
    try pool.close()
}
print(String(format: "RESULT 100,000 inserts in one save: ours median %.3f s (best %.3f), GRDB prepared inserts median %.3f s (best %.3f), ratio %.2fx",
             median(saves), saves.min()!, median(grdbInserts), grdbInserts.min()!, median(saves) / median(grdbInserts)))
