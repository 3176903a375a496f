import ArgumentParser
import Foundation
import Keychain

/// `sandbox keychain list`: prints the attributes of every visible item.
struct KeychainListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list", abstract: "Print the attributes of every item the caller can see (never the data).")

    @OptionGroup var store: KeychainStoreOptions

    @Option(name: .customLong("class"), help: ArgumentHelp("Only items of this class.", valueName: "class"))
    var itemClass: KeychainClassName?

    func run() throws {
        try CommandRunner.run {
            let client = try store.client()
            let classes = itemClass.map { [$0.itemClass] } ?? KeychainItemClass.allCases
            let items = try classes.flatMap { itemClass -> [KeychainItem] in
                do {
                    return try client.query(KeychainQuery(itemClass, limit: .all))
                } catch let error as KeychainError where error.code == .itemNotFound {
                    return []
                }
            }
            try store.output(json: KeychainItemPrinter.json(items), text: KeychainItemPrinter.text(items))
        }
    }
}
