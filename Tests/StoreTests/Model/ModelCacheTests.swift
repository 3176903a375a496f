import Foundation
import KeyedArchive
import PropertyList
import Store
import Testing

@Suite struct ModelCacheTests {
    static func fixtureModels() throws -> [(String, ObjectModel)] {
        var models: [(String, ObjectModel)] = []
        for name in ModelFixtures.contentsFiles {
            models.append((name, try ObjectModel(contentsFile: ModelFixtures.modelPath(name))))
        }
        for store in ["CoreDataPlus__SampleModel2_V1.sqlite", "CoreDataPlus__SampleModel_V1.sqlite", "CoreDataStack__TestModel.sqlite"] {
            models.append((store, try ObjectModel(modelCache: try #require(ModelFixtures.modelRows(of: store).modelCache))))
        }
        return models
    }

    @Test func everyFixtureModelRoundTripsThroughAModelCache() throws {
        for (name, model) in try Self.fixtureModels() {
            let blob = try model.modelCacheData()
            let again = try ObjectModel(modelCache: blob)
            #expect(again == model, "\(name)")
            #expect(again.versionHashes == model.versionHashes, "\(name)")
        }
    }

    /// The archive uses only classes and keys Core Data itself writes, so
    /// Core Data (and tools that read its caches) can read ours.
    @Test func writesCoreDatasClassesAndKeys() throws {
        var coreData: [String: Set<String>] = [:]
        for store in ModelFixtures.storeFiles {
            let archive = try RawDeflate.inflate(try #require(ModelFixtures.modelRows(of: store).modelCache))
            for (className, keys) in try Self.classesAndKeys(archive) { coreData[className, default: []].formUnion(keys) }
        }
        for (name, model) in try Self.fixtureModels() {
            for (className, keys) in try Self.classesAndKeys(try model.archivedData()) {
                let known = try #require(coreData[className], "\(name): Core Data never writes \(className)")
                #expect(keys.isSubset(of: known), "\(name): \(className) keys \(keys.subtracting(known))")
            }
        }
    }

    static func classesAndKeys(_ archive: Data) throws -> [String: Set<String>] {
        let table = try KeyedArchiveTable(data: archive)
        var result: [String: Set<String>] = [:]
        for object in table.objects {
            guard let fields = object.dictionaryValue, let classReference = fields["$class"]?.uidValue,
                  let className = table.objects[Int(classReference.value)]["$classname"]?.stringValue else { continue }
            result[className, default: []].formUnion(fields.keys.filter { $0 != "$class" })
        }
        return result
    }
}

@Suite struct HostileModelCacheTests {
    static func realCache() throws -> Data {
        try #require(ModelFixtures.modelRows(of: "CoreDataPlus__SampleModel_V1.sqlite").modelCache)
    }

    static func code(of body: () throws -> Void) -> ModelError.Code? {
        do { try body(); return nil } catch let error as ModelError { return error.code } catch { return nil }
    }

    @Test func randomBytesAreCorruptData() {
        var generator = SystemRandomNumberGenerator()
        let noise = Data((0..<4096).map { _ in UInt8.random(in: 0...255, using: &generator) })
        let code = Self.code { _ = try ObjectModel(modelCache: noise) }
        #expect(code == .corruptCompressedData || code == .malformedArchive)
    }

    @Test func aTruncatedCacheIsATypedError() throws {
        let cache = try Self.realCache()
        for length in [0, 1, 10, cache.count / 2, cache.count - 1] {
            #expect(Self.code { _ = try ObjectModel(modelCache: cache.prefix(length)) } == .corruptCompressedData, "\(length) bytes")
        }
    }

    @Test func aDeflateBombStopsAtTheLimit() throws {
        let bomb = try RawDeflate.deflate(Data(count: 8 << 20))
        #expect(bomb.count < 16 << 10)
        #expect(Self.code { _ = try RawDeflate.inflate(bomb, limit: 1 << 20) } == .inflatedSizeLimit)
        #expect(Self.code { _ = try ObjectModel(modelCache: bomb, inflatedLimit: 1 << 20) } == .inflatedSizeLimit)
        #expect(try RawDeflate.inflate(bomb).count == 8 << 20)
    }

    @Test func anArchiveThatIsNotAModelIsATypedError() throws {
        let notAModel = try KeyedArchiver.archivedData(withRootObject: ArchivedObject(className: "NSDictionary", fields: ["NS.keys": .array([]), "NS.objects": .array([])]))
        #expect(Self.code { _ = try ObjectModel(modelCache: RawDeflate.deflate(notAModel)) } == .invalidArchivedModel)
        #expect(Self.code { _ = try ObjectModel(modelCache: RawDeflate.deflate(Data("plain text".utf8))) } == .malformedArchive)
        let wrongField = ArchivedObject(className: "NSManagedObjectModel", fields: ["NSEntities": .string("nope")])
        #expect(Self.code { _ = try ObjectModel(archivedData: KeyedArchiver.archivedData(withRootObject: wrongField)) } == .invalidArchivedModel)
    }

    @Test func cyclicInheritanceIsATypedError() throws {
        let model = ArchivedObject(className: "NSManagedObjectModel")
        let a = ArchivedObject(className: "NSEntityDescription", fields: ["NSEntityName": .string("A")])
        let b = ArchivedObject(className: "NSEntityDescription", fields: ["NSEntityName": .string("B"), "NSSuperentity": .object(a)])
        a.fields["NSSuperentity"] = .object(b)
        a.fields["NSManagedObjectModel"] = .object(model)
        model.fields["NSEntities"] = .object(ArchivedObject(className: "NSDictionary", fields: [
            "NS.keys": .array([.string("A"), .string("B")]), "NS.objects": .array([.object(a), .object(b)]),
        ]))
        let data = try KeyedArchiver.archivedData(withRootObject: model)
        a.fields = [:]
        #expect(Self.code { _ = try ObjectModel(archivedData: data) } == .unresolvedReference)
    }

    /// Flipped bytes anywhere in a real cached archive give a model or a typed error, never a crash.
    @Test func mutatedArchivesNeverCrash() throws {
        let archive = try RawDeflate.inflate(try Self.realCache())
        var generator = SystemRandomNumberGenerator()
        var outcomes: [String: Int] = [:]
        for _ in 0..<300 {
            var bytes = [UInt8](archive)
            for _ in 0..<Int.random(in: 1...8, using: &generator) {
                bytes[Int.random(in: 8..<bytes.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator)
            }
            do {
                _ = try ObjectModel(archivedData: Data(bytes))
                outcomes["model", default: 0] += 1
            } catch {
                outcomes[error.code.rawValue, default: 0] += 1
            }
        }
        #expect(outcomes.values.reduce(0, +) == 300)
    }
}
