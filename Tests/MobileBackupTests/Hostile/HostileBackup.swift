import Foundation
import PropertyList
import Testing
@testable import MobileBackup

/// Helpers that turn a backup the fixture wrote into a hostile one.
enum HostileBackup {
    /// Sets (or, with nil, removes) `key` of the dictionary property list at `url`, keeping its format.
    static func setKey(_ key: String, to value: PropertyListValue?, in url: URL) throws {
        let (plist, format) = try PropertyListValue.decode(Data(contentsOf: url))
        var dictionary = try #require(plist.dictionaryValue)
        dictionary[key] = value
        try PropertyListValue.dictionary(dictionary).encoded(as: format).write(to: url)
    }

    /// A fileID whose two-character bucket is not in the backup at `directory`.
    static func fileIDInUnusedBucket(_ directory: URL) throws -> String {
        let used = Set(try FileManager.default.contentsOfDirectory(atPath: directory.path))
        let hex = Array("0123456789abcdef")
        for first in hex { for second in hex where !used.contains(String([first, second])) {
            return String([first, second]) + String(repeating: "7", count: 38)
        } }
        throw MobileBackupError(.notFound, "every bucket is used")
    }

    /// Plants a sealed incremental commit (`Sandbox.incoming/` and its
    /// journal) in the backup at `backup` whose bucket is a link to
    /// `outside`: applied, it would move an attacker's file into `outside`
    /// and delete `outside/<fileID>`. Returns the planted fileID.
    @discardableResult
    static func plantHostileCommit(in backup: URL, outside: URL) throws -> String {
        let fileID = try fileIDInUnusedBucket(backup)
        try FileManager.default.createDirectory(at: outside, withIntermediateDirectories: true)
        try Data("victim".utf8).write(to: outside.appendingPathComponent(fileID))
        try FileManager.default.createSymbolicLink(at: backup.appendingPathComponent(String(fileID.prefix(2))),
                                                   withDestinationURL: outside)
        let incoming = backup.appendingPathComponent(IncrementalCommit.directoryName)
        try FileManager.default.createDirectory(at: incoming, withIntermediateDirectories: true)
        try Data("attacker".utf8).write(to: incoming.appendingPathComponent(fileID))
        let other = String(fileID.prefix(2)) + String(repeating: "8", count: 38)
        try Data("attacker 2".utf8).write(to: incoming.appendingPathComponent(other))
        try Data(fileID.utf8).write(to: incoming.appendingPathComponent(IncrementalCommit.journalName))
        return fileID
    }
}
