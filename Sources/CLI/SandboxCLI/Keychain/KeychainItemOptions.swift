import ArgumentParser
import Foundation
import Keychain

/// The item class and attributes given on the command line: the new item's
/// for `add`, the ones to match for `find` and `delete`.
struct KeychainItemOptions: ParsableArguments {
    @Option(name: .customLong("class"),
            help: ArgumentHelp("generic-password (the default), internet-password or key.", valueName: "class"))
    var itemClass: KeychainClassName?

    @Option(help: "The service (generic passwords).") var service: String?
    @Option(help: "The account (generic and internet passwords).") var account: String?
    @Option(help: "The server (internet passwords).") var server: String?
    @Option(name: .customLong("protocol"), help: "The protocol code, such as htps (internet passwords).")
    var protocolCode: String?
    @Option(help: "The port (internet passwords).") var port: Int?
    @Option(help: "The path (internet passwords).") var path: String?
    @Option(help: "The label.") var label: String?
    @Option(help: ArgumentHelp("The application tag, as text (keys).", valueName: "tag")) var tag: String?
    @Option(help: ArgumentHelp("The access group.", valueName: "group")) var accessGroup: String?

    @Option(help: ArgumentHelp("When the data can be read (iOS codes such as ak or cku work too).", valueName: "class"))
    var accessibility: KeychainAccessibilityName?

    /// The class to use; `generic-password` when none was given.
    var resolvedClass: KeychainItemClass { itemClass?.itemClass ?? .genericPassword }

    /// The attributes that were given.
    var attributes: KeychainAttributes {
        KeychainAttributes(
            service: service, account: account, server: server, protocol: protocolCode.map(KeychainProtocol.init(rawValue:)),
            port: port, path: path, label: label, applicationTag: tag.map { Data($0.utf8) }, accessGroup: accessGroup,
            accessibility: accessibility?.accessibility)
    }
}

/// An item class as named on the command line.
struct KeychainClassName: ExpressibleByArgument, Sendable {
    var itemClass: KeychainItemClass

    /// Accepts `generic-password`, `internet-password`, `key` and iOS's codes (`genp`, `inet`, `keys`).
    init?(argument: String) {
        switch argument {
        case "generic-password": itemClass = .genericPassword
        case "internet-password": itemClass = .internetPassword
        case "key": itemClass = .key
        default:
            guard let itemClass = KeychainItemClass(rawValue: argument) else { return nil }
            self.itemClass = itemClass
        }
    }

    static var allValueStrings: [String] { ["generic-password", "internet-password", "key"] }
}

/// An accessibility class as named on the command line.
struct KeychainAccessibilityName: ExpressibleByArgument, Sendable {
    var accessibility: KeychainAccessibility

    /// Accepts the spelled-out names and iOS's codes (`ak`, `cku` …).
    init?(argument: String) {
        guard let accessibility = KeychainAccessibility(name: argument) else { return nil }
        self.accessibility = accessibility
    }

    static var allValueStrings: [String] { KeychainAccessibility.allCases.map(\.name) }
}
