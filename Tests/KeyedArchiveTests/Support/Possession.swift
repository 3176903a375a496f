import Foundation
import KeyedArchive

/// The seed's Possessions example: an Objective-C `Possession` class
/// archived with `encodeObject:forKey:` and `encodeInt:forKey:`.
final class Possession: KeyedArchivable {
    static let archiveClass = KeyedArchiveClass("Possession")

    var possessionName: String
    var serialNumber: String?
    var dateCreated: Date
    var imageKey: String?
    var valueInDollars: Int

    init(possessionName: String, serialNumber: String?, dateCreated: Date, imageKey: String?, valueInDollars: Int) {
        self.possessionName = possessionName
        self.serialNumber = serialNumber
        self.dateCreated = dateCreated
        self.imageKey = imageKey
        self.valueInDollars = valueInDollars
    }

    func encode(with coder: KeyedArchiver) throws {
        try coder.encode(possessionName, forKey: "possessionName")
        try coder.encode(serialNumber, forKey: "serialNumber")
        try coder.encode(dateCreated, forKey: "dateCreated")
        try coder.encode(imageKey, forKey: "imageKey")
        coder.encodeInteger(valueInDollars, forKey: "valueInDollars")
    }

    init(from coder: KeyedUnarchiver) throws {
        possessionName = try coder.decode(String.self, forKey: "possessionName")
        serialNumber = try coder.decodeIfPresent(String.self, forKey: "serialNumber")
        dateCreated = try coder.decode(Date.self, forKey: "dateCreated")
        imageKey = try coder.decodeIfPresent(String.self, forKey: "imageKey")
        valueInDollars = try coder.decodeInteger(forKey: "valueInDollars")
    }
}

/// A value type with nested archivables and collections.
struct Inventory: KeyedArchivable, Equatable {
    var owner: String
    var tags: Set<String>
    var counts: [String: Int]
    var history: [Date]
    var note: String?
    var flag: Bool
    var ratio: Double
    var big: Int64

    func encode(with coder: KeyedArchiver) throws {
        try coder.encode(owner, forKey: "owner")
        try coder.encode(tags, forKey: "tags")
        try coder.encode(counts, forKey: "counts")
        try coder.encode(history, forKey: "history")
        try coder.encode(note, forKey: "note")
        coder.encodeBool(flag, forKey: "flag")
        coder.encodeDouble(ratio, forKey: "ratio")
        coder.encodeInt64(big, forKey: "big")
    }

    init(owner: String, tags: Set<String>, counts: [String: Int], history: [Date], note: String?, flag: Bool, ratio: Double, big: Int64) {
        self.owner = owner
        self.tags = tags
        self.counts = counts
        self.history = history
        self.note = note
        self.flag = flag
        self.ratio = ratio
        self.big = big
    }

    init(from coder: KeyedUnarchiver) throws {
        owner = try coder.decode(String.self, forKey: "owner")
        tags = try coder.decode(Set<String>.self, forKey: "tags")
        counts = try coder.decode([String: Int].self, forKey: "counts")
        history = try coder.decode([Date].self, forKey: "history")
        note = try coder.decodeIfPresent(String.self, forKey: "note")
        flag = try coder.decodeBool(forKey: "flag")
        ratio = try coder.decodeDouble(forKey: "ratio")
        big = try coder.decodeInt64(forKey: "big")
    }
}

/// A class that can point at another instance of itself.
final class Node: KeyedArchivable {
    static let archiveClass = KeyedArchiveClass("Node")
    var name: String
    var next: Node?

    init(name: String, next: Node? = nil) {
        self.name = name
        self.next = next
    }

    func encode(with coder: KeyedArchiver) throws {
        try coder.encode(name, forKey: "name")
        try coder.encode(next, forKey: "next")
    }

    init(from coder: KeyedUnarchiver) throws {
        name = try coder.decode(String.self, forKey: "name")
        next = try coder.decodeIfPresent(Node.self, forKey: "next")
    }
}
