import FileSystem
import SystemPackage
import Foundation

/// The list a migration works through, made once before anything moves
/// and kept in the journal: every item under the source, parents before
/// their contents, names in bytewise order. Items are moved one by one in
/// this order, so "the first N are done" is all the journal must say.
struct MigrationPlan: Codable, Sendable, Equatable {
    /// One item: a directory (created at the destination, its source
    /// removed once empty) or anything else (renamed as it is: a file, or
    /// a link moved as a link, never followed).
    struct Entry: Codable, Sendable, Equatable {
        enum Kind: String, Codable, Sendable { case file, link, directory, other }
        /// The path relative to the source directory.
        var path: String
        var kind: Kind
        /// Bytes, for regular files (0 otherwise).
        var size: UInt64
        /// Permission bits, for directories created at the destination.
        var permissions: UInt32
    }

    static let currentVersion = 1

    var version: Int
    /// A random identifier, which the state names so a state never applies to another plan.
    var identifier: String
    /// The container-relative source ("Documents").
    var source: String
    /// The container-relative destination directory.
    var destination: String
    var destinationKind: MigrationDestination
    var entries: [Entry]

    var totalBytes: UInt64 { entries.reduce(0) { $0 + $1.size } }

    enum CodingKeys: String, CodingKey { case version, identifier, source, destination, destinationKind, entries }

    init(version: Int, identifier: String, source: String, destination: String, destinationKind: MigrationDestination,
         entries: [Entry]) {
        self.version = version
        self.identifier = identifier
        self.source = source
        self.destination = destination
        self.destinationKind = destinationKind
        self.entries = entries
    }

    // The entries are one packed `Data` value rather than a property-list
    // dictionary each: a plan of 10,000 items is written in milliseconds,
    // which matters on the launch path the watchdog times.
    init(from decoder: any Decoder) throws {
        let values = try decoder.container(keyedBy: CodingKeys.self)
        version = try values.decode(Int.self, forKey: .version)
        identifier = try values.decode(String.self, forKey: .identifier)
        source = try values.decode(String.self, forKey: .source)
        destination = try values.decode(String.self, forKey: .destination)
        destinationKind = try values.decode(MigrationDestination.self, forKey: .destinationKind)
        guard let entries = PackedEntries.unpack(try values.decode(Data.self, forKey: .entries)) else {
            throw DecodingError.dataCorruptedError(forKey: .entries, in: values, debugDescription: "malformed plan entries")
        }
        self.entries = entries
    }

    func encode(to encoder: any Encoder) throws {
        var values = encoder.container(keyedBy: CodingKeys.self)
        try values.encode(version, forKey: .version)
        try values.encode(identifier, forKey: .identifier)
        try values.encode(source, forKey: .source)
        try values.encode(destination, forKey: .destination)
        try values.encode(destinationKind, forKey: .destinationKind)
        try values.encode(PackedEntries.pack(entries), forKey: .entries)
    }

    /// Walks the source (never following a link, not entering a directory
    /// swapped since it was seen) and checks that no item's name is taken
    /// at the destination by something else.
    static func make(source: FileDescriptor, sourcePath: String, destination: FileDescriptor, destinationPath: String,
                     kind: MigrationDestination) throws(MigrationError) -> MigrationPlan {
        var entries: [Entry] = []
        do {
            try source.walkTree { entry, _ throws(FileSystemError) in
                // A dead atomic write's temporary file is not the app's data.
                if FileDescriptor.isTemporaryName(entry.name) { return .skip }
                let status = entry.status
                let kind: Entry.Kind = status.isDirectory ? .directory : status.isRegularFile ? .file
                    : status.isSymbolicLink ? .link : .other
                entries.append(Entry(path: entry.path, kind: kind, size: kind == .file ? status.size : 0,
                                     permissions: status.permissions))
                return .descend
            }
        } catch {
            throw MigrationError(ContainerError(error, path: sourcePath, "plan the migration"))
        }
        try checkConflicts(entries, destination: destination, destinationPath: destinationPath, sourcePath: sourcePath)
        return MigrationPlan(version: currentVersion, identifier: UUID().uuidString, source: sourcePath,
                             destination: destinationPath, destinationKind: kind, entries: entries)
    }

    /// Refuses a plan whose item names are taken at the destination by
    /// something else (a file where a file would go, a file or a link where
    /// a directory would go). Looked up without following links.
    private static func checkConflicts(_ entries: [Entry], destination: FileDescriptor, destinationPath: String,
                                       sourcePath: String) throws(MigrationError) {
        let cursor = DirectoryCursor(base: destination, durability: .none)
        for entry in entries {
            let (parent, name) = DirectoryHandle.split(entry.path)
            let existing: FileStatus?
            do {
                guard let directory = try cursor.directory(parent, creating: false) else { continue }
                existing = try directory.statusIfPresent(of: name)
            } catch {
                throw MigrationError(.conflict, path: destinationPath + "/" + parent,
                                     "cannot migrate: the destination holds something other than a directory here").caused(by: error)
            }
            guard let existing else { continue }
            if entry.kind == .directory && existing.isDirectory { continue }
            throw MigrationError(.conflict, path: destinationPath + "/" + entry.path,
                                 "cannot migrate \(sourcePath)/\(entry.path): the destination already holds an item of that name")
        }
    }
}
