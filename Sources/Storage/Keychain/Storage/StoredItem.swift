import Foundation
import GRDB

/// One row of the `item` table: an item's attributes in the clear and its
/// data sealed.
struct StoredItem: Sendable {
    var persistentID: String
    var itemClass: KeychainItemClass
    /// The attributes, with `accessGroup` and `accessibility` set.
    var attributes: KeychainAttributes
    var creationDate, modificationDate: Date
    var sealedData: Data

    var accessGroup: String { attributes.accessGroup ?? "" }
    var accessibility: KeychainAccessibility { attributes.accessibility ?? .default }

    static let columns = """
        persistentID, class, accessGroup, accessibility, identity, service, account, server, protocol, port, \
        path, label, applicationTag, creationDate, modificationDate, sealedData
        """

    /// The values for ``columns``, in order.
    var arguments: StatementArguments {
        [persistentID, itemClass.rawValue, accessGroup, accessibility.rawValue, identity,
         attributes.service, attributes.account, attributes.server, attributes.protocol?.rawValue,
         attributes.port.map { Int64($0) }, attributes.path, attributes.label, attributes.applicationTag,
         creationDate.timeIntervalSince1970, modificationDate.timeIntervalSince1970, sealedData]
    }

    /// The canonical encoding of class, access group and primary key: each
    /// part as a 4-byte big-endian length and its bytes. A missing string is
    /// the empty string and a missing port is 0, as on iOS.
    var identity: Data {
        var parts: [Data] = [Data(itemClass.rawValue.utf8), Data(accessGroup.utf8)]
        for name in itemClass.primaryKeyAttributes {
            switch name {
            case .service: parts.append(Data((attributes.service ?? "").utf8))
            case .account: parts.append(Data((attributes.account ?? "").utf8))
            case .server: parts.append(Data((attributes.server ?? "").utf8))
            case .protocol: parts.append(Data((attributes.protocol?.rawValue ?? "").utf8))
            case .port: parts.append(Data(String(attributes.port ?? 0).utf8))
            case .path: parts.append(Data((attributes.path ?? "").utf8))
            case .label: parts.append(Data((attributes.label ?? "").utf8))
            case .applicationTag: parts.append(attributes.applicationTag ?? Data())
            case .accessGroup, .accessibility: break
            }
        }
        var result = Data()
        for part in parts {
            withUnsafeBytes(of: UInt32(truncatingIfNeeded: part.count).bigEndian) { result.append(contentsOf: $0) }
            result.append(part)
        }
        return result
    }

    /// The item as a query returns it, with `data` when given.
    func publicItem(returning: KeychainReturn, data: Data?) -> KeychainItem {
        guard returning.contains(.attributes) else {
            return KeychainItem(itemClass: itemClass, attributes: KeychainAttributes(), data: data)
        }
        return KeychainItem(itemClass: itemClass, attributes: attributes, creationDate: creationDate,
                            modificationDate: modificationDate, data: data)
    }
}

extension StoredItem {
    /// The item from a row selected with ``columns``; `decodeFailed` for a
    /// class or accessibility code this version does not know.
    init(row: Row) throws {
        persistentID = row["persistentID"]
        let classCode: String = row["class"]
        let accessibilityCode: String = row["accessibility"]
        guard let itemClass = KeychainItemClass(rawValue: classCode),
              let accessibility = KeychainAccessibility(rawValue: accessibilityCode) else {
            throw KeychainError(.decodeFailed, "item \(persistentID) has an unknown class '\(classCode)' or accessibility '\(accessibilityCode)'")
        }
        self.itemClass = itemClass
        let protocolCode: String? = row["protocol"]
        let port: Int64? = row["port"]
        attributes = KeychainAttributes(
            service: row["service"], account: row["account"], server: row["server"],
            protocol: protocolCode.map(KeychainProtocol.init(rawValue:)), port: port.map { Int($0) },
            path: row["path"], label: row["label"], applicationTag: row["applicationTag"],
            accessGroup: row["accessGroup"], accessibility: accessibility)
        creationDate = Date(timeIntervalSince1970: row["creationDate"])
        modificationDate = Date(timeIntervalSince1970: row["modificationDate"])
        sealedData = row["sealedData"]
    }
}
