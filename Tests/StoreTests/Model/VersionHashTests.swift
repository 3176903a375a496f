import Foundation
import PropertyList
import Store
import Testing

@Suite struct VersionHashTests {
    /// Every store's cached model hashes exactly as Core Data recorded in its metadata.
    @Test(arguments: ModelFixtures.storeFiles)
    func cachedModelReproducesTheRecordedHashes(store: String) throws {
        let rows = try ModelFixtures.modelRows(of: store)
        let metadata = try StoreMetadata(propertyList: rows.metadata)
        let model = try ObjectModel(modelCache: try #require(rows.modelCache))
        let hashes = model.versionHashes
        #expect(hashes.entities == metadata.versionHashes.entities)
        #expect(metadata.isCompatible(with: model))
        if let digest = metadata.versionHashesDigest { #expect(hashes.digest == digest) }
        if let checksum = metadata.versionChecksum { #expect(hashes.checksum == checksum) }
        #expect(metadata.storeType == "SQLite" && metadata.versionHashesVersion == 3)
    }

    /// The contents file of the version that wrote each store hashes the same.
    @Test(arguments: CachedModelTests.pairs.map(\.store))
    func contentsFileReproducesTheRecordedHashes(store: String) throws {
        let contents = try #require(CachedModelTests.pairs.first { $0.store == store }?.contents)
        let model = try ObjectModel(contentsFile: ModelFixtures.modelPath(contents))
        let metadata = try StoreMetadata(propertyList: ModelFixtures.modelRows(of: store).metadata)
        #expect(model.versionHashes.entities == metadata.versionHashes.entities)
        #expect(model.versionIdentifiers == metadata.versionIdentifiers)
    }

    /// The compiled models' `VersionInfo.plist` records each version's hashes too.
    @Test func compiledModelsReproduceTheirVersionInfo() throws {
        for bundle in ["CoreDataPlus__SampleModel.momd_", "CoreDataPlus__SampleModel3.momd_"] {
            let info = try PropertyListFile.dictionary(ModelFixtures.modelPath(bundle + "VersionInfo.plist"))
            let versions = try #require(info["NSManagedObjectModel_VersionHashes"]?.dictionaryValue)
            for (version, hashes) in versions {
                let model = try ObjectModel(compiledModelFile: ModelFixtures.modelPath(bundle + version + ".mom"))
                let recorded = try #require(hashes.dictionaryValue).map { ($0.key, $0.value.dataValue ?? Data()) }
                #expect(model.versionHashes.entities == Dictionary(uniqueKeysWithValues: recorded), "\(version)")
            }
        }
    }

    @Test func anyChangeThatMattersChangesTheHashAndOthersDoNot() {
        let base = ObjectModel(entities: [EntityDescription(name: "Item", attributes: [AttributeDescription(name: "title", type: .string)])])
        let hash = base.versionHash(ofEntity: "Item")
        var renamedClass = base
        renamedClass.entities[0].className = "MyItem"
        renamedClass.entities[0].userInfo = ["key": "value"]
        renamedClass.entities[0].attributes.append(AttributeDescription(name: "cached", type: .integer64, isTransient: true))
        #expect(renamedClass.versionHash(ofEntity: "Item") == hash)
        var retyped = base
        retyped.entities[0].attributes[0].type = .binaryData
        #expect(retyped.versionHash(ofEntity: "Item") != hash)
        var required = base
        required.entities[0].attributes[0].isOptional = false
        #expect(required.versionHash(ofEntity: "Item") != hash)
        var modified = base
        modified.entities[0].versionHashModifier = "2"
        #expect(modified.versionHash(ofEntity: "Item") != hash)
    }

    @Test func metadataRoundTripsThroughItsPropertyList() throws {
        for store in ModelFixtures.storeFiles {
            let original = try StoreMetadata(propertyList: ModelFixtures.modelRows(of: store).metadata)
            let again = try StoreMetadata(propertyList: original.propertyListData())
            #expect(again == original, "\(store)")
        }
        let model = try ObjectModel(contentsFile: ModelFixtures.modelPath("CoreDataPlus__SampleModel3.xcdatamodeld_SampleModel3.xcdatamodel_contents"))
        let written = StoreMetadata(model: model)
        let recorded = try StoreMetadata(propertyList: ModelFixtures.modelRows(of: "CoreDataPlus__SampleModel3_V1.sqlite").metadata)
        #expect(written.versionHashes == recorded.versionHashes)
        #expect(written.versionHashesDigest == recorded.versionHashesDigest)
        #expect(written.versionChecksum == recorded.versionChecksum)
        #expect(written.versionIdentifiers == recorded.versionIdentifiers)
    }

    @Test func malformedMetadataIsATypedError() {
        for bytes in [Data("not a plist".utf8), Data("<plist><array/></plist>".utf8),
                      Data("<plist><dict><key>NSStoreType</key><string>SQLite</string></dict></plist>".utf8)] {
            #expect(throws: ModelError.self) { try StoreMetadata(propertyList: bytes) }
        }
    }
}
