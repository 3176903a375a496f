import Foundation
import Store
import Testing

@Suite struct ContentsFileTests {
    @Test func everyContentsFileLoads() throws {
        #expect(ModelFixtures.contentsFiles.count == 23)
        for name in ModelFixtures.contentsFiles {
            let model = try ObjectModel(contentsFile: ModelFixtures.modelPath(name))
            #expect(!model.entities.isEmpty, "\(name)")
        }
    }

    @Test func readsInheritanceTypesConstraintsAndRenamingIdentifiers() throws {
        let model = try ObjectModel(contentsFile: ModelFixtures.modelPath("CoreDataPlus__SampleModel.xcdatamodeld_SampleModel2.xcdatamodel_contents"))
        #expect(model.entities.map(\.name) == ["Car", "LuxuryCar", "Person", "SportCar"])
        #expect(model.versionIdentifiers == ["2"])
        let luxury = try #require(model.entity(named: "LuxuryCar"))
        #expect(luxury.superentityName == "SportCar")
        #expect(luxury.renamingIdentifier == "ExpensiveSportCar")
        #expect(luxury.attributes.first?.type == .boolean)
        #expect(luxury.attributes.first?.defaultValue == "NO")
        let car = try #require(model.entity(named: "Car"))
        #expect(car.uniquenessConstraints == [["numberPlate"]])
        #expect(car.attributes.first { $0.name == "numberPlate" }?.isOptional == false)
        let owner = try #require(car.relationships.first)
        #expect(owner.destinationEntityName == "Person" && owner.inverseName == "cars" && !owner.isToMany && owner.maxCount == 1)
        #expect(car.fetchIndexes == [FetchIndexDescription(name: "byMakerAndNumberPlate", elements: [
            .init(propertyName: "maker"), .init(propertyName: "numberPlate"),
        ])])
        let cars = try #require(model.entity(named: "Person")?.relationships.first)
        #expect(cars.isToMany && cars.maxCount == 0 && cars.deleteRule == .nullify)
    }

    @Test func readsTransientTransformableAndPreservedAttributes() throws {
        let model = try ObjectModel(contentsFile: ModelFixtures.modelPath("CoreDataPlus__SampleModel.xcdatamodeld_SampleModel.xcdatamodel_contents"))
        let car = try #require(model.entity(named: "Car"))
        let color = try #require(car.attributes.first { $0.name == "color" })
        #expect(color.type == .transformable && color.valueTransformerName == "ColorTransformer" && color.valueClassName == "Color")
        #expect(car.attributes.first { $0.name == "currentDrivingSpeed" }?.isTransient == true)
        #expect(model.entity(named: "Person")?.attributes.first { $0.name == "id" }?.preservesValueInHistoryOnDeletion == true)
    }

    @Test func currentVersionFilesNameAVersionThatExists() throws {
        #expect(ModelFixtures.currentVersionFiles.count == 6)
        for name in ModelFixtures.currentVersionFiles {
            let current = try ModelVersionFiles.currentVersionName(ofFile: ModelFixtures.modelPath(name))
            let bundle = name.replacingOccurrences(of: "_.xccurrentversion", with: "_")
            let file = bundle + current.replacingOccurrences(of: " ", with: "_") + ".xcdatamodel_contents"
            #expect(ModelFixtures.contentsFiles.contains(file), "\(name) names \(current)")
        }
    }

    @Test(arguments: [
        ("<model><entity name=\"A\"><attribute name=\"x\" attributeType=\"Nope\"/></entity></model>", ModelError.Code.invalidElement, 1),
        ("<model>\n<entity name=\"A\">\n<attribute attributeType=\"String\"/></entity></model>", .invalidElement, 3),
        ("<model><entity name=\"A\"><relationship name=\"r\" destinationEntity=\"B\"/></entity></model>", .unresolvedReference, nil),
        ("<model><entity name=\"A\" parentEntity=\"B\"/><entity name=\"B\" parentEntity=\"A\"/></model>", .unresolvedReference, nil),
        ("<model><entity name=\"A\">", .malformedXML, 1),
        ("<model><entity name=\"A\"/><entity name=\"A\"/></model>", .invalidElement, nil),
        ("<model><entity name=\"A\"><attribute name=\"x\" attributeType=\"String\"/><relationship name=\"x\" destinationEntity=\"A\"/></entity></model>", .invalidElement, nil),
        ("<model><entity name=\"A\"><relationship name=\"r\" destinationEntity=\"A\" inverseName=\"nope\"/></entity></model>", .unresolvedReference, nil),
        ("<plist/>", .invalidElement, 1),
        ("<model><entity name=\"A\"><relationship name=\"r\" destinationEntity=\"A\" maxCount=\"-1\"/></entity></model>", .invalidElement, 1),
    ] as [(String, ModelError.Code, Int?)])
    func malformedFilesAreTypedErrors(xml: String, code: ModelError.Code, line: Int?) {
        #expect {
            _ = try ObjectModel(contentsData: Data(xml.utf8), path: "test.xml")
        } throws: { error in
            guard let error = error as? ModelError else { return false }
            return error.code == code && error.path == "test.xml" && (line == nil || error.line == line)
        }
    }

    @Test func aMissingFileIsATypedError() {
        #expect(throws: ModelError.self) { try ObjectModel(contentsFile: "/nonexistent/contents") }
    }
}

@Suite struct HostileContentsFileTests {
    /// Nested entity definitions ("billion laughs") and external entities
    /// are neither expanded without bound nor fetched.
    @Test func entityExpansionIsBoundedAndExternalEntitiesAreNotRead() {
        var laughs = "<!DOCTYPE model [<!ENTITY l0 \"lol\">"
        for level in 1...12 { laughs += "<!ENTITY l\(level) \"" + String(repeating: "&l\(level - 1);", count: 10) + "\">" }
        laughs += "]><model><entity name=\"&l12;\"/></model>"
        let started = ContinuousClock.now
        let result = Result { try ObjectModel(contentsData: Data(laughs.utf8)) }
        #expect(ContinuousClock.now - started < .seconds(10))
        if case .success(let model) = result { #expect((model.entities.first?.name.utf8.count ?? 0) < 100_000_000) }

        let external = "<!DOCTYPE model [<!ENTITY x SYSTEM \"file:///etc/passwd\">]><model><entity name=\"A&x;\"/></model>"
        if case .success(let model) = Result(catching: { try ObjectModel(contentsData: Data(external.utf8)) }) {
            #expect(model.entities.first?.name.contains("root") != true)
        }
    }

    /// Truncating a real contents file anywhere gives a typed error, never a crash.
    @Test func truncatedFilesAreTypedErrors() throws {
        let path = ModelFixtures.modelPath("CoreDataPlus__SampleModel.xcdatamodeld_SampleModel.xcdatamodel_contents")
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        for length in stride(from: 0, to: bytes.count - 20, by: 97) {
            #expect(throws: ModelError.self) { try ObjectModel(contentsData: bytes.prefix(length)) }
        }
    }
}
