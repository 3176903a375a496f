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
