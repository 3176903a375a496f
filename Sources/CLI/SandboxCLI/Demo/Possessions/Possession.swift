import Foundation
import KeyedArchive

/// One item of the seed documents' Possessions example, archived under the
/// Objective-C class name and keys the original app used, so an iOS build of
/// that app would read `Documents/possessions.data` written here.
struct Possession: KeyedArchivable, Equatable, Sendable {
    static let archiveClass = KeyedArchiveClass("Possession")

    var possessionName: String
    var serialNumber: String
    var valueInDollars: Int
    var dateCreated: Date
    /// The key of the possession's picture in the image store (a file in Caches
    /// here, rebuilt when the system purges it).
    var imageKey: String

    init(possessionName: String, serialNumber: String, valueInDollars: Int, dateCreated: Date, imageKey: String) {
        self.possessionName = possessionName
        self.serialNumber = serialNumber
        self.valueInDollars = valueInDollars
        self.dateCreated = dateCreated
        self.imageKey = imageKey
    }

    func encode(with coder: KeyedArchiver) throws {
        try coder.encode(possessionName, forKey: "possessionName")
        try coder.encode(serialNumber, forKey: "serialNumber")
        coder.encodeInteger(valueInDollars, forKey: "valueInDollars")
        try coder.encode(dateCreated, forKey: "dateCreated")
        try coder.encode(imageKey, forKey: "imageKey")
    }

    init(from coder: KeyedUnarchiver) throws {
        possessionName = try coder.decode(String.self, forKey: "possessionName")
        serialNumber = try coder.decode(String.self, forKey: "serialNumber")
        valueInDollars = try coder.decodeInteger(forKey: "valueInDollars")
        dateCreated = try coder.decode(Date.self, forKey: "dateCreated")
        imageKey = try coder.decode(String.self, forKey: "imageKey")
    }
}

extension Possession {
    /// The example's sample inventory: a fixed list, so every demo run
    /// archives the same bytes apart from the creation dates.
    static func samples(createdAt date: Date) -> [Possession] {
        [
            Possession(possessionName: "Rusty Spork", serialNumber: "4F2A9", valueInDollars: 12, dateCreated: date, imageKey: "B1C3E7A0"),
            Possession(possessionName: "Shiny Bear", serialNumber: "7D0C1", valueInDollars: 46, dateCreated: date, imageKey: "0E95F2D4"),
            Possession(possessionName: "Fluffy Mac", serialNumber: "2B8E6", valueInDollars: 99, dateCreated: date, imageKey: "55AA1F3C"),
        ]
    }
}
