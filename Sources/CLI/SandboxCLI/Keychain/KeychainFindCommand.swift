import ArgumentParser
import Foundation
import Keychain

/// `sandbox keychain find`: prints the items that match the given attributes.
struct KeychainFindCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "find", abstract: "Print the first item (or all items) matching the given attributes.")

    @OptionGroup var store: KeychainStoreOptions
    @OptionGroup(title: "Attributes to match") var item: KeychainItemOptions

    @Flag(help: "Print every match, not only the first.")
    var all = false

    @Flag(help: "Include each item's data.")
    var showData = false

    @Flag(name: .customShort("w"), help: "Print only the data of the first match, byte for byte.")
    var dataOnly = false

    func validate() throws {
        if dataOnly && (store.json || all) { throw ValidationError("-w cannot be combined with --json or --all") }
    }

    func run() throws {
        try CommandRunner.run {
            let returning: KeychainReturn = dataOnly ? .data : (showData ? .all : .attributes)
            let query = KeychainQuery(item.resolvedClass, item.attributes, limit: all ? .all : .one, returning: returning)
            let items = try store.client().query(query)
            if dataOnly {
                try FileOutput.writeToStandardOutput(items.first?.data ?? Data())
            } else {
                try store.output(json: KeychainItemPrinter.json(items), text: KeychainItemPrinter.text(items))
            }
        }
    }
}
