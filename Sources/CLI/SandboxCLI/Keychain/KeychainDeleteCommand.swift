import ArgumentParser
import Foundation
import Keychain
import PropertyList

/// `sandbox keychain delete`: deletes every item that matches.
struct KeychainDeleteCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "delete", abstract: "Delete every item matching the given attributes, and print how many.")

    @OptionGroup var store: KeychainStoreOptions
    @OptionGroup(title: "Attributes to match") var item: KeychainItemOptions

    func run() throws {
        try CommandRunner.run {
            let count = try store.client().delete(KeychainQuery(item.resolvedClass, item.attributes))
            try store.output(json: ["deleted": .integer(PropertyListInteger(Int64(count)))] as PropertyListValue,
                             text: "deleted \(count) item\(count == 1 ? "" : "s")\n")
        }
    }
}
