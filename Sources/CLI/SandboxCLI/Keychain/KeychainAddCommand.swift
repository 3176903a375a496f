import ArgumentParser
import Foundation
import Keychain

/// `sandbox keychain add`: adds one item and prints it.
struct KeychainAddCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add", abstract: "Add an item, and print its stored attributes.")

    @OptionGroup var store: KeychainStoreOptions
    @OptionGroup(title: "Item") var item: KeychainItemOptions

    @Option(help: ArgumentHelp("The item's data, as text.", valueName: "text"))
    var data: String?

    @Option(help: ArgumentHelp("A file whose bytes are the item's data ('-' is standard input).", valueName: "path"))
    var dataFile: String?

    func validate() throws {
        guard (data == nil) != (dataFile == nil) else { throw ValidationError("give exactly one of --data and --data-file") }
    }

    func run() throws {
        try CommandRunner.run {
            let bytes = try data.map { Data($0.utf8) } ?? FileInput.read(dataFile ?? "-")
            let added = try store.client().add(item.resolvedClass, item.attributes, data: bytes)
            try store.output(json: KeychainItemPrinter.json([added]), text: KeychainItemPrinter.text([added]))
        }
    }
}
