import CacheManifest
import Container
import Device
import FileSystem
import Foundation
import SystemPackage

/// The benchmark's device: `apps` apps whose data containers hold `files`
/// files and links in all, spread as a real app spreads them (mostly small
/// files, 0-4 KiB):
///
/// | where | share | what |
/// |---|---|---|
/// | Documents | 15 % | albums of `IMG_nnnnn.JPG` (100 a folder, every 500th flagged on its own), a flagged `Downloads` folder, hard links in `Shared`, 3 sparse files of 64 MiB, two names differing by case |
/// | Library/Caches | 45 % | an image cache three levels deep (16 × 16 × 16 folders), every file in the cache manifest, 10 stray files that are not |
/// | Library/Application Support | 25 % | data shards, a flagged `Offline` folder (30 %), the cache manifest |
/// | Library (other) | 9 % | WebKit local storage, preferences with their locks |
/// | tmp | 5 % | upload parts |
/// | Documents/Shared | 1 % | hard links to album photos |
///
/// A finished tree is marked with `complete.txt` (its parameters), so a
/// later run with the same parameters reuses it.
struct BenchmarkTree {
    var root: URL
    var files: Int
    var apps: Int

    var device: URL { root.appendingPathComponent("device") }
    var marker: URL { root.appendingPathComponent("complete.txt") }
    var signature: String { "files=\(files) apps=\(apps) layout=1\n" }

    static func bundleID(_ app: Int) -> String { "com.example.bench\(app)" }

    /// Whether a complete tree with these parameters is already there.
    var isComplete: Bool {
        (try? FileSystemPaths.readFile(atPath: marker.path)).map { String(decoding: $0, as: UTF8.self) } == signature
    }

    /// Builds the tree (removing any incomplete one first), printing progress.
    func build() throws {
        _ = try FileSystemPaths.removeTree(atPath: root.path)
        try FileSystemPaths.makeDirectories(atPath: root.path)
        let bundles = root.appendingPathComponent("bundles")
        let device = try Device.create(at: device, name: "Audit Bench")
        let perApp = files / apps
        for app in 0..<apps {
            let start = Date()
            let bundle = try Self.makeBundle(in: bundles, app: app)
            _ = try device.install(bundleAt: bundle)
            let container = try device.app(Self.bundleID(app)).dataContainer()
            var filler = ContainerFiller(container: container, seed: UInt64(app + 1))
            try filler.fill(files: perApp + (app == 0 ? files - perApp * apps : 0))
            print(String(format: "  app %d/%d: %d files in %.1f s", app + 1, apps, filler.made, Date().timeIntervalSince(start)))
        }
        try FileSystemPaths.writeAtomically(Data(signature.utf8), toPath: marker.path, options: AtomicWriteOptions(durability: .full))
    }

    static func makeBundle(in directory: URL, app: Int) throws -> URL {
        let name = "Bench\(app)"
        let bundle = directory.appendingPathComponent("\(name).app")
        try FileSystemPaths.makeDirectories(atPath: bundle.path)
        let info = """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict><key>CFBundleExecutable</key><string>\(name)</string>
            <key>CFBundleIdentifier</key><string>\(bundleID(app))</string><key>CFBundleVersion</key><string>1</string>
            <key>CFBundleShortVersionString</key><string>1.0</string></dict></plist>
            """
        try FileSystemPaths.writeAtomically(Data(info.utf8), toPath: bundle.appendingPathComponent("Info.plist").path,
                                            options: AtomicWriteOptions(durability: .none))
        try FileSystemPaths.writeAtomically(Data("#!/bin/sh\n".utf8), toPath: bundle.appendingPathComponent(name).path,
                                            options: AtomicWriteOptions(durability: .none, permissions: 0o755))
        return bundle
    }
}

/// Writes one container's share of the tree through open directories (no
/// path is resolved per file).
struct ContainerFiller {
    var container: AppContainer
    var state: UInt64
    private(set) var made = 0
    /// Bytes the files are cut from.
    private let content: [UInt8]

    init(container: AppContainer, seed: UInt64) {
        self.container = container
        state = seed &* 0x9E37_79B9_7F4A_7C15 | 1
        content = (0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 131 &+ 7) }
    }

    mutating func random(_ bound: Int) -> Int {
        state ^= state >> 12
        state ^= state << 25
        state ^= state >> 27
        return Int((state &* 0x2545_F491_4F6C_DD1D) >> 1) % bound
    }

    /// A small file's size: mostly under 4 KiB, some empty.
    mutating func smallSize() -> Int { random(8) == 0 ? 0 : random(4097) }

    func open(_ relative: String) throws -> FileDescriptor {
        let path = container.root.appendingPathComponent(relative).path
        try FileSystemPaths.makeDirectories(atPath: path)
        return try FileDescriptor.openDirectory(atPath: path)
    }

    mutating func write(_ name: String, in directory: FileDescriptor, size: Int) throws {
        let fd = try directory.open(name, .writeOnly, options: [.create, .truncate])
        defer { fd.closeQuietly() }
        if size > 0 { try content.withUnsafeBytes { try fd.writeFully(UnsafeRawBufferPointer(rebasing: $0.prefix(size))) } }
        made += 1
    }

    /// Writes `count` small files into `folders(i)`, `perFolder` a folder.
    mutating func spread(_ count: Int, perFolder: Int, folder: (Int) -> String, name: (Int) -> String,
                         each: (inout ContainerFiller, Int, String, FileDescriptor) throws -> Void = { _, _, _, _ in }) throws {
        var current: (index: Int, fd: FileDescriptor)?
        defer { current?.fd.closeQuietly() }
        for index in 0..<count {
            let folderIndex = index / perFolder
            if current?.index != folderIndex {
                current?.fd.closeQuietly()
                current = (folderIndex, try open(folder(folderIndex)))
            }
            guard let fd = current?.fd else { continue }
            let fileName = name(index)
            try write(fileName, in: fd, size: smallSize())
            try each(&self, index, folder(folderIndex) + "/" + fileName, fd)
        }
    }

    mutating func fill(files total: Int) throws {
        let documents = total * 15 / 100, caches = total * 45 / 100, support = total * 25 / 100
        let library = total * 9 / 100, links = total / 100
        let tmp = total - documents - caches - support - library - links

        // Documents: albums (every 500th photo flagged on its own), a
        // flagged Downloads folder, hard links, sparse files, a case pair.
        let downloads = documents / 10
        let albums = documents - downloads - 5
        var photos: [String] = []
        try spread(albums, perFolder: 100, folder: { String(format: "Documents/Albums/Album%03d", $0) },
                   name: { String(format: "IMG_%05d.JPG", $0) }) { filler, index, path, _ in
            if index % 500 == 499 { try filler.container.setExcludedFromBackup(true, at: path) }
            if filler.photos(needed: links, have: photos.count, index: index) { photos.append(path) }
        }
        try spread(downloads, perFolder: 200, folder: { String(format: "Documents/Downloads/Batch%02d", $0) },
                   name: { String(format: "episode-%05d.m4a", $0) })
        try container.setExcludedFromBackup(true, at: "Documents/Downloads")
        let notes = try open("Documents/Notes")
        defer { notes.closeQuietly() }
        try write("Readme.txt", in: notes, size: 1200)
        try write("README.txt", in: notes, size: 800)
        let documentsRoot = try open("Documents")
        defer { documentsRoot.closeQuietly() }
        for index in 0..<3 {
            let fd = try documentsRoot.open("sparse-\(index).bin", .writeOnly, options: [.create, .truncate])
            defer { fd.closeQuietly() }
            try content.withUnsafeBytes { try fd.writeFully($0, at: UInt64(64 << 20) - 4096) }
            made += 1
        }
        let shared = try open("Documents/Shared")
        defer { shared.closeQuietly() }
        let containerRoot = try FileDescriptor.openDirectory(atPath: container.root.path)
        defer { containerRoot.closeQuietly() }
        for (index, photo) in photos.prefix(links).enumerated() {
            let parent = (photo as NSString).deletingLastPathComponent, name = (photo as NSString).lastPathComponent
            let album = try containerRoot.openDirectory(parent)
            defer { album.closeQuietly() }
            _ = try album.hardLink(name, to: shared, String(format: "link-%05d.JPG", index))
            made += 1
        }

        // Caches: an image cache three levels deep, recorded in the
        // manifest, and a few stray files that are not.
        var recorded: [CachedResource] = []
        recorded.reserveCapacity(caches)
        let stray = 10
        try spread(caches - stray, perFolder: max(1, (caches - stray) / 4096 + 1),
                   folder: { String(format: "Library/Caches/com.example.images/%x/%x/%x", $0 >> 8 & 15, $0 >> 4 & 15, $0 & 15) },
                   name: { String(format: "%08x.jpg", $0 &* 2_654_435_761 & 0xFFFF_FFFF) }) { filler, _, path, fd in
            let size = try fd.status(of: (path as NSString).lastPathComponent).size
            recorded.append(CachedResource(path: path, url: "https://cdn.example.com/" + path, size: Int64(size),
                                           sha256: String(repeating: "0", count: 64), fetchedAt: 1_700_000_000))
            _ = filler
        }
        try spread(stray, perFolder: stray, folder: { _ in "Library/Caches/Stray" }, name: { "unknown-\($0).dat" })
        let manifest = try CacheManifest(container: container)
        try manifest.record(recorded)

        // Application Support: shards, and a flagged Offline folder.
        let offline = support * 3 / 10
        try spread(support - offline, perFolder: 200, folder: { String(format: "Library/Application Support/Data/Shard%03d", $0) },
                   name: { String(format: "record-%05d.bin", $0) })
        try spread(offline, perFolder: 250, folder: { String(format: "Library/Application Support/Offline/Region%03d", $0) },
                   name: { String(format: "tile-%05d.pbf", $0) })
        try container.setExcludedFromBackup(true, at: "Library/Application Support/Offline")

        // Library: WebKit's local storage, preferences with their locks.
        try spread(library - 2, perFolder: 150, folder: { String(format: "Library/WebKit/WebsiteData/LocalStorage/Origin%03d", $0) },
                   name: { String(format: "item-%05d.localstorage", $0) })
        let preferences = try open("Library/Preferences")
        defer { preferences.closeQuietly() }
        let plist = Array("bplist00".utf8) + [UInt8](repeating: 0, count: 200)
        let fd = try preferences.open("com.example.settings.plist", .writeOnly, options: [.create, .truncate])
        try plist.withUnsafeBytes { try fd.writeFully($0) }
        fd.closeQuietly()
        try write(LockFile.lockName(for: "com.example.settings.plist"), in: preferences, size: 0)

        // tmp: upload parts.
        try spread(tmp, perFolder: 500, folder: { String(format: "tmp/Uploads/Batch%03d", $0) },
                   name: { String(format: "part-%05d", $0) })
    }

    /// Whether the `index`th album photo is one of the `needed` that get a
    /// second name, spread evenly.
    func photos(needed: Int, have: Int, index: Int) -> Bool {
        have < needed && index % 10 == 3
    }
}
