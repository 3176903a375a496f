import Foundation
import OrderedCollections
import PropertyList

/// One item as a backup carries it: class, attributes, dates and plaintext
/// data (only ever inside the sealed payload).
struct BackupItem: Sendable {
    var itemClass: KeychainItemClass
    /// The attributes, with `accessGroup` and `accessibility` set.
    var attributes: KeychainAttributes
    var creationDate, modificationDate: Date
    var data: Data

    /// The item's dictionary, keyed by iOS's attribute codes.
    var propertyList: PropertyListValue {
        var fields: OrderedDictionary<String, PropertyListValue> = ["class": .string(itemClass.rawValue)]
        func put(_ name: KeychainAttributeName, _ value: PropertyListValue?) {
            if let value { fields[name.rawValue] = value }
        }
        put(.accessGroup, attributes.accessGroup.map(PropertyListValue.string))
        put(.accessibility, attributes.accessibility.map { .string($0.rawValue) })
        put(.service, attributes.service.map(PropertyListValue.string))
        put(.account, attributes.account.map(PropertyListValue.string))
        put(.server, attributes.server.map(PropertyListValue.string))
        put(.protocol, attributes.protocol.map { .string($0.rawValue) })
        put(.port, attributes.port.map { .integer(PropertyListInteger(Int64($0))) })
        put(.path, attributes.path.map(PropertyListValue.string))
        put(.label, attributes.label.map(PropertyListValue.string))
        put(.applicationTag, attributes.applicationTag.map(PropertyListValue.data))
        fields["cdat"] = .date(creationDate)
        fields["mdat"] = .date(modificationDate)
        fields["v_Data"] = .data(data)
        return .dictionary(fields)
    }
}

extension BackupItem {

    /// The item in a decoded payload; `decodeFailed` if it is malformed.
    init(_ value: PropertyListValue, index: Int) throws {
        func fail(_ reason: String) -> KeychainError {
            KeychainError(.decodeFailed, "backup item \(index): \(reason)")
        }
        func string(_ key: String) throws -> String? {
            guard let field = value[key] else { return nil }
            guard let text = field.stringValue else { throw fail("'\(key)' is not a string") }
            return text
        }
        guard value.dictionaryValue != nil else { throw fail("not a dictionary") }
        guard let classCode = try string("class"), let itemClass = KeychainItemClass(rawValue: classCode) else {
            throw fail("missing or unknown class")
        }
        guard let group = try string("agrp"), !group.isEmpty else { throw fail("missing access group") }
        guard let code = try string("pdmn"), let accessibility = KeychainAccessibility(rawValue: code) else {
            throw fail("missing or unknown accessibility")
        }
        var port: Int?
        if let field = value["port"] {
            guard let number = field.int64Value, let exact = Int(exactly: number) else { throw fail("'port' is not an integer") }
            port = exact
        }
        var tag: Data?
        if let field = value["atag"] {
            guard let bytes = field.dataValue else { throw fail("'atag' is not data") }
            tag = bytes
        }
        guard let created = value["cdat"]?.dateValue, let modified = value["mdat"]?.dateValue,
              let data = value["v_Data"]?.dataValue else {
            throw fail("missing dates or data")
        }
        let attributes = KeychainAttributes(
            service: try string("svce"), account: try string("acct"), server: try string("srvr"),
            protocol: try string("ptcl").map(KeychainProtocol.init(rawValue:)), port: port, path: try string("path"),
            label: try string("labl"), applicationTag: tag, accessGroup: group, accessibility: accessibility)
        do {
            try ItemValidation.check(attributes, of: itemClass)
        } catch let error as KeychainError {
            throw fail(error.message)
        }
        self.init(itemClass: itemClass, attributes: attributes, creationDate: created, modificationDate: modified, data: data)
    }
}
