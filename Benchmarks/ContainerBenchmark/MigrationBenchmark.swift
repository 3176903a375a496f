import Container
import Foundation

/// `container-benchmark migrate [files] [rounds]`: moving a Documents tree
/// of `files` small files (in folders of 100) to Application Support, the
/// three ways in turn on fresh trees: `ContainerMigration` (journal, flag,
/// `.full` and `.none` durability) and, as the anchor, Foundation's
/// `FileManager.moveItem` per file with `setxattr`-free, journal-free
/// renames (what an app would write by hand, and neither resumable nor
/// confined). Prints the median seconds of each and the ratio.
enum MigrationBenchmark {
    static func run(files: Int, rounds: Int, parent: URL) throws {
        var full: [Double] = []
        var fast: [Double] = []
        var foundation: [Double] = []
        for round in 0..<rounds {
            for kind in 0..<3 {
                let root = parent.appendingPathComponent("migration-benchmark-\(round)-\(kind)-\(UUID().uuidString)", isDirectory: true)
                defer { try? FileManager.default.removeItem(at: root) }
                let container = try AppContainer.create(at: root, bundleName: "Bench")
                let paths = try makeTree(container, files: files)
                let started = Date()
                switch kind {
                case 0, 1:
                    var migration = ContainerMigration(container: container, to: .applicationSupport)
                    migration.durability = kind == 0 ? .full : .none
                    let report = try migration.run()
                    guard report.moved == paths.count + files / 100 else {
                        throw ContainerError(.io(errno: 0), path: "Documents", "moved \(report.moved) items")
                    }
                default:
                    try moveWithFoundation(container, paths)
                }
                let seconds = Date().timeIntervalSince(started)
                [0: { full.append(seconds) }, 1: { fast.append(seconds) }, 2: { foundation.append(seconds) }][kind]?()
            }
        }
        let median = { (values: [Double]) in values.sorted()[values.count / 2] }
        print("| moving \(files) files (\(files / 100) folders) from Documents to Application Support | median s | files/s | / Foundation |")
        print("|---|---:|---:|---:|")
        for (name, values) in [("ContainerMigration, `.full` (journal + directory fsyncs, flag set)", full),
                               ("ContainerMigration, `.none` (journal, flag set, no fsync)", fast),
                               ("anchor: FileManager.moveItem per file (no journal, no flag)", foundation)] {
            let seconds = median(values)
            print("| \(name) | \(String(format: "%.3f", seconds)) | \(Int(Double(files) / seconds)) "
                + "| \(String(format: "%.2f×", seconds / median(foundation))) |")
        }
        print("")
        print("Median of \(rounds) rounds, the three in turn on fresh trees; load average (1 min) at the end: "
            + "\(String(format: "%.2f", Plain.loadAverage())).")
    }

    /// `files` files of 1 KiB in folders of 100; returns their Documents-relative paths.
    private static func makeTree(_ container: AppContainer, files: Int) throws -> [String] {
        var paths: [String] = []
        let payload = Data(repeating: 0x5A, count: 1024)
        for index in 0..<files {
            let folder = "folder\(index / 100)"
            if index % 100 == 0 { try container.createDirectory("Documents/" + folder) }
            let path = folder + "/file\(index).bin"
            try container.writeAtomically(payload, to: "Documents/" + path, durability: .none)
            paths.append(path)
        }
        return paths
    }

    private static func moveWithFoundation(_ container: AppContainer, _ paths: [String]) throws {
        let documents = container.url(for: .documents)
        let support = container.url(for: .applicationSupport)
        var made = Set<String>()
        for path in paths {
            let folder = (path as NSString).deletingLastPathComponent
            if made.insert(folder).inserted {
                try FileManager.default.createDirectory(at: support.appendingPathComponent(folder), withIntermediateDirectories: true)
            }
            try FileManager.default.moveItem(at: documents.appendingPathComponent(path), to: support.appendingPathComponent(path))
        }
        for folder in made { try FileManager.default.removeItem(at: documents.appendingPathComponent(folder)) }
    }
}
