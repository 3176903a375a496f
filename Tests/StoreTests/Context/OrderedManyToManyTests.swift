import Foundation
import GRDB
import Store
import Testing
import TestSupport

/// An ordered many-to-many keeps its members' places in the join table's
/// `Z_FOK_` column, as Core Data does, so the order survives a save and a
/// reopening, and a reorder alone is a change that is saved.
@Suite struct OrderedManyToManyTests {
    /// A playlist's songs are ordered; a song's playlists are not.
    static let model = ObjectModel(entities: [
        EntityDescription(name: "Playlist", attributes: [AttributeDescription(name: "title", type: .string)], relationships: [
            RelationshipDescription(name: "songs", destinationEntityName: "Song", inverseName: "playlists",
                                    isToMany: true, isOrdered: true),
        ]),
        EntityDescription(name: "Song", attributes: [AttributeDescription(name: "name", type: .string)], relationships: [
            RelationshipDescription(name: "playlists", destinationEntityName: "Playlist", inverseName: "songs", isToMany: true),
        ]),
    ])

    @Test func theOrderIsWrittenToTheJoinTableAndReadBack() throws {
        let (directory, store) = try ObjectContextTests.newStore(Self.model, "ordered-m2m")
        defer { withExtendedLifetime(directory) {} }
        let context = ObjectContext(store: store)
        let playlist = try context.insert("Playlist", values: ["title": .string("Road")])
        let songs = try ["a", "b", "c"].map { try context.insert("Song", values: ["name": .string($0)]) }
        try context.setToMany("songs", of: playlist, to: [songs[2], songs[0], songs[1]])
        #expect(try context.destinations(of: playlist, relationship: "songs") == [songs[2], songs[0], songs[1]])
        let saved = try context.save().permanentIDs
        let list = try #require(saved[playlist])
        let song = { (index: Int) throws -> ObjectID in try #require(saved[songs[index]]) }
        #expect(try store.destinations(of: list, relationship: "songs") == [try song(2), try song(0), try song(1)])
        #expect(try store.destinations(of: try song(0), relationship: "playlists") == [list])

        // A reorder of the same members is a change of its own.
        let reorder = ObjectContext(store: store)
        try reorder.setToMany("songs", of: list, to: [try song(1), try song(2), try song(0)])
        #expect(try reorder.destinations(of: list, relationship: "songs") == [try song(1), try song(2), try song(0)])
        let changes = try reorder.save()
        #expect(changes.updated[list]?.contains("songs") == true)

        let reopened = try PersistentStore.openReadOnly(atPath: directory.path("store.sqlite"), model: Self.model)
        #expect(try reopened.destinations(of: list, relationship: "songs") == [try song(1), try song(2), try song(0)])
        // The places themselves, as a tool reading the table sees them.
        let queue = try DatabaseQueue(path: directory.path("store.sqlite"))
        let places = try queue.read { db in
            try Row.fetchAll(db, sql: "SELECT Z_2SONGS, Z_FOK_2SONGS FROM Z_1SONGS ORDER BY Z_FOK_2SONGS")
                .map { [$0[0] as Int64, $0[1] as Int64] }
        }
        #expect(places == [[try song(1).primaryKey, 1], [try song(2).primaryKey, 2], [try song(0).primaryKey, 3]])
    }

    @Test func aMemberRemovedAndTheRestReorderedKeepTheirNewPlaces() throws {
        let (directory, store) = try ObjectContextTests.newStore(Self.model, "ordered-m2m-remove")
        defer { withExtendedLifetime(directory) {} }
        let context = ObjectContext(store: store)
        let playlist = try context.insert("Playlist", values: ["title": .string("Night")])
        let songs = try ["a", "b", "c", "d"].map { try context.insert("Song", values: ["name": .string($0)]) }
        try context.setToMany("songs", of: playlist, to: songs)
        let saved = try context.save().permanentIDs
        let list = try #require(saved[playlist])
        let ids = try songs.map { try #require(saved[$0]) }

        let edit = ObjectContext(store: store)
        try edit.remove(ids[1], from: "songs", of: list)
        try edit.setToMany("songs", of: list, to: [ids[3], ids[0], ids[2]])
        try edit.delete(ids[2])
        #expect(try edit.destinations(of: list, relationship: "songs") == [ids[3], ids[0]])
        try edit.save()
        #expect(try store.destinations(of: list, relationship: "songs") == [ids[3], ids[0]])
    }
}
