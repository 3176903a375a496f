import Container
import Foundation
import TestSupport
import Testing

@Suite struct CaseSensitivityTests {
    let temp: TemporaryDirectory

    init() throws { temp = try TemporaryDirectory("case") }

    @Test(arguments: [CaseCheck.automatic, .always])
    func missesByCaseSuggestTheRightSpelling(check: CaseCheck) throws {
        let container = try AppContainer.create(at: temp.url.appendingPathComponent("App-\(check)"),
                                                options: ContainerOptions(caseCheck: check))
        try container.createDirectory("Library/Application Support/Models")
        try container.writeAtomically(Data("m".utf8), to: "Library/Application Support/Models/model.bin")
        #expect(try container.read("Library/Application Support/Models/model.bin") == Data("m".utf8))
        #expect(try code { _ = try container.read("Library/application support/models/Model.bin") }
            == .caseMismatch(suggestion: "Library/Application Support/Models/model.bin"))
        #expect(try code { _ = try container.read("documents/x") } == .notFound)
        #expect(try container.suggestedSpelling(for: "library/caches") == "Library/Caches")
        #expect(try container.suggestedSpelling(for: "Library/Caches") == nil)
        #expect(try container.suggestedSpelling(for: "Library/Nothing") == nil)
        #expect(!container.fileExists("library/Caches"))
        #expect(try code { _ = try container.attributes("LIBRARY") } == .caseMismatch(suggestion: "Library"))
    }

    @Test func namesDifferingOnlyByCaseAreReported() throws {
        let container = try AppContainer.create(at: temp.url.appendingPathComponent("App"))
        try container.writeAtomically(Data(), to: "Documents/Data.json")
        try container.writeAtomically(Data(), to: "Documents/data.json")
        try container.writeAtomically(Data(), to: "Documents/other.json")
        try container.createDirectory("Documents/sub")
        try container.writeAtomically(Data(), to: "Documents/sub/A")
        try container.writeAtomically(Data(), to: "Documents/sub/a")
        #expect(try container.namesDifferingOnlyByCase(in: "Documents") == [["Documents/Data.json", "Documents/data.json"]])
        #expect(try container.namesDifferingOnlyByCase(in: "", recursive: true)
            == [["Documents/Data.json", "Documents/data.json"], ["Documents/sub/A", "Documents/sub/a"]])
        // With both spellings present, each is found exactly.
        try container.writeAtomically(Data("upper".utf8), to: "Documents/Data.json")
        #expect(try container.read("Documents/data.json").isEmpty)
    }
}
