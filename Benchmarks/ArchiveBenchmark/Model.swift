import Foundation
import KeyedArchive

/// The benchmark's object graph, as Swift classes archived by this module:
/// items with strings, a date and numbers, each pointing at one of a few
/// shared owners, which hold a date and an array of aliases.
///
/// Arrays are per owner, not per item: Foundation on Linux keys its
/// archiving table by value equality and `NSArray`'s hash is its count, so
/// tens of thousands of small arrays make its archiver quadratic (minutes
/// for this graph); see docs/PERFORMANCE.md.
final class Owner: KeyedArchivable {
    static let archiveClass = KeyedArchiveClass("Owner")
    var name: String
    var joined: Date
    var aliases: [String]

    init(name: String, joined: Date, aliases: [String]) {
        self.name = name
        self.joined = joined
        self.aliases = aliases
    }

    func encode(with coder: KeyedArchiver) throws {
        try coder.encode(name, forKey: "name")
        try coder.encode(joined, forKey: "joined")
        try coder.encode(aliases, forKey: "aliases")
    }

    init(from coder: KeyedUnarchiver) throws {
        name = try coder.decode(String.self, forKey: "name")
        joined = try coder.decode(Date.self, forKey: "joined")
        aliases = try coder.decode([String].self, forKey: "aliases")
    }
}

final class Item: KeyedArchivable {
    static let archiveClass = KeyedArchiveClass("Item")
    var name: String
    var serial: String
    var created: Date
    var value: Int
    var price: Double
    var owner: Owner

    init(name: String, serial: String, created: Date, value: Int, price: Double, owner: Owner) {
        self.name = name
        self.serial = serial
        self.created = created
        self.value = value
        self.price = price
        self.owner = owner
    }

    func encode(with coder: KeyedArchiver) throws {
        try coder.encode(name, forKey: "name")
        try coder.encode(serial, forKey: "serial")
        try coder.encode(created, forKey: "created")
        coder.encodeInteger(value, forKey: "value")
        coder.encodeDouble(price, forKey: "price")
        try coder.encode(owner, forKey: "owner")
    }

    init(from coder: KeyedUnarchiver) throws {
        name = try coder.decode(String.self, forKey: "name")
        serial = try coder.decode(String.self, forKey: "serial")
        created = try coder.decode(Date.self, forKey: "created")
        value = try coder.decodeInteger(forKey: "value")
        price = try coder.decodeDouble(forKey: "price")
        owner = try coder.decode(Owner.self, forKey: "owner")
    }
}

/// The same graph as `NSObject` subclasses with `NSCoding`, for Foundation.
final class FOwner: NSObject, NSCoding {
    let name: NSString
    let joined: NSDate
    let aliases: NSArray

    init(_ owner: Owner) {
        name = owner.name as NSString
        joined = owner.joined as NSDate
        aliases = NSArray(array: owner.aliases.map { $0 as NSString })
    }

    func encode(with coder: NSCoder) {
        coder.encode(name, forKey: "name")
        coder.encode(joined, forKey: "joined")
        coder.encode(aliases, forKey: "aliases")
    }

    init?(coder: NSCoder) {
        guard let name = coder.decodeObject(forKey: "name") as? NSString,
              let joined = coder.decodeObject(forKey: "joined") as? NSDate,
              let aliases = coder.decodeObject(forKey: "aliases") as? NSArray else { return nil }
        self.name = name
        self.joined = joined
        self.aliases = aliases
    }
}

final class FItem: NSObject, NSCoding {
    let name: NSString
    let serial: NSString
    let created: NSDate
    let value: Int
    let price: Double
    let owner: FOwner

    init(_ item: Item, owner: FOwner) {
        name = item.name as NSString
        serial = item.serial as NSString
        created = item.created as NSDate
        value = item.value
        price = item.price
        self.owner = owner
    }

    func encode(with coder: NSCoder) {
        coder.encode(name, forKey: "name")
        coder.encode(serial, forKey: "serial")
        coder.encode(created, forKey: "created")
        coder.encode(value, forKey: "value")
        coder.encode(price, forKey: "price")
        coder.encode(owner, forKey: "owner")
    }

    init?(coder: NSCoder) {
        guard let name = coder.decodeObject(forKey: "name") as? NSString,
              let serial = coder.decodeObject(forKey: "serial") as? NSString,
              let created = coder.decodeObject(forKey: "created") as? NSDate,
              let owner = coder.decodeObject(forKey: "owner") as? FOwner else { return nil }
        self.name = name
        self.serial = serial
        self.created = created
        self.value = coder.decodeInteger(forKey: "value")
        self.price = coder.decodeDouble(forKey: "price")
        self.owner = owner
    }
}

/// A seeded, deterministic graph: `itemCount` items over `ownerCount` owners.
enum GraphGenerator {
    static func items(itemCount: Int, ownerCount: Int) -> [Item] {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next() -> UInt64 {
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            return state
        }
        let owners = (0..<ownerCount).map { index in
            Owner(name: "Owner \(index)", joined: Date(timeIntervalSinceReferenceDate: Double(index) * 86_400),
                  aliases: ["owner-\(index)", "ownér \(index) \(next() % 1000)"])
        }
        return (0..<itemCount).map { index in
            Item(name: "Item \(index) \(next() % 1000)", serial: String(next(), radix: 36),
                 created: Date(timeIntervalSinceReferenceDate: Double(next() % 800_000_000)),
                 value: Int(next() % 100_000) - 50_000, price: Double(next() % 1_000_000) / 100,
                 owner: owners[Int(next() % UInt64(ownerCount))])
        }
    }

    static func foundationItems(_ items: [Item]) -> NSArray {
        var owners: [ObjectIdentifier: FOwner] = [:]
        return NSArray(array: items.map { item in
            let owner = owners[ObjectIdentifier(item.owner)] ?? FOwner(item.owner)
            owners[ObjectIdentifier(item.owner)] = owner
            return FItem(item, owner: owner)
        })
    }
}
