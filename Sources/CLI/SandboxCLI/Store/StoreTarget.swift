import ArgumentParser
import FileSystem
import Foundation
import Store

/// The store a `sandbox store` command reads, and how it prints.
struct StoreTarget: ParsableArguments, JSONOrTextOutput {
    @Argument(help: ArgumentHelp("The store file (.sqlite).", valueName: "store"))
    var path: String

    @Option(help: ArgumentHelp("The model: an .xcdatamodel directory or its contents file, or a compiled .mom. "
                               + "By default, the model cached in the store.", valueName: "file"))
    var model: String?

    @Flag(help: "Print JSON instead of text.")
    var json = false

    func open() throws -> (store: PersistentStore, metadata: StoreMetadata?, modelOrigin: PersistentStore.ModelOrigin) {
        try PersistentStore.openReadOnly(atPath: path, model: try model.map(Self.loadModel))
    }

    /// A contents file is XML; anything else is taken for a compiled model.
    static func loadModel(_ path: String) throws -> ObjectModel {
        var file = path
        if FileSystemPaths.isDirectory(atPath: path) { file = (path as NSString).appendingPathComponent("contents") }
        let head = try FileInput.read(file).prefix(64)
        if String(decoding: head, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines).hasPrefix("<") {
            return try ObjectModel(contentsFile: file)
        }
        return try ObjectModel(compiledModelFile: file)
    }
}
