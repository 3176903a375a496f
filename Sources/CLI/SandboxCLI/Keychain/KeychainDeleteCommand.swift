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
            if store.json {
                try JSONOutput.print(["deleted": .integer(PropertyListInteger(Int64(count)))] as PropertyListValue)
            } else {
                try CommandRunner.print("deleted \(count) item\(count == 1 ? "" : "s")\n")
            }
        }
    }
}
