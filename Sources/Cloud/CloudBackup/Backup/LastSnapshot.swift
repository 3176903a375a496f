import Device
import FileSystem
import Foundation

/// The files of the device's last committed snapshot, kept on the device so
/// the next backup does not read unchanged files again. Losing it costs
/// only that: the next backup reads everything and the service still
/// deduplicates.
struct LastSnapshot: Codable, Sendable {
    var files: [String: SnapshotManifest.File]

    init(manifest: SnapshotManifest) {
        files = Dictionary(manifest.files.map { ($0.path, $0) }, uniquingKeysWith: { first, _ in first })
    }

    static func path(_ device: Device) -> String { CloudAccount.directory(of: device) + "/last-snapshot.json" }

    static func load(device: Device) -> LastSnapshot? {
        guard let data = try? FileSystemPaths.readFile(atPath: path(device)) else { return nil }
        return try? JSONDecoder().decode(LastSnapshot.self, from: data)
    }

    func save(device: Device) {
        guard let data = try? JSONEncoder().encode(self) else { return }
        try? FileSystemPaths.writeAtomically(data, toPath: Self.path(device), options: AtomicWriteOptions(durability: .fileOnly, permissions: 0o600))
    }
}
