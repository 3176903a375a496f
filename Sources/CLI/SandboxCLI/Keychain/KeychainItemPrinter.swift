import Foundation
import Keychain
import OrderedCollections
import PropertyList

/// How `sandbox keychain` shows items: a text layout for people, and JSON
/// for programs (sorted keys, ISO 8601 dates, base64 data).
enum KeychainItemPrinter {
    /// The command-line name of `itemClass`.
    static func name(of itemClass: KeychainItemClass) -> String {
        switch itemClass {
        case .genericPassword: return "generic-password"
        case .internetPassword: return "internet-password"
        case .key: return "key"
        }
    }

    /// Each item as a block: the class, then one indented `name: value` line
    /// per attribute; blocks are separated by a blank line.
    static func text(_ items: [KeychainItem]) -> String {
        items.map { item in
            var lines = [name(of: item.itemClass)]
            for (key, value) in fields(item) {
                lines.append("  \(key): \(textValue(value))")
            }
            return lines.joined(separator: "\n") + "\n"
        }.joined(separator: "\n")
    }

    /// `{"items": [...]}`, the value `--json` prints (through ``JSONOutput``).
    static func json(_ items: [KeychainItem]) -> PropertyListValue {
        let list = items.map { item -> PropertyListValue in
            var object: OrderedDictionary<String, PropertyListValue> = ["class": .string(name(of: item.itemClass))]
            for (key, value) in fields(item) { object[key] = value }
            return .dictionary(object)
        }
        return ["items": .array(list)]
    }

    /// The item's set attributes, dates and data, keyed by their JSON names.
    private static func fields(_ item: KeychainItem) -> [(String, PropertyListValue)] {
        let attributes = item.attributes
        let optional: [(String, PropertyListValue?)] = [
            ("service", attributes.service.map(PropertyListValue.string)),
            ("account", attributes.account.map(PropertyListValue.string)),
            ("server", attributes.server.map(PropertyListValue.string)),
            ("protocol", attributes.protocol.map { .string($0.rawValue) }),
            ("port", attributes.port.map { .integer(PropertyListInteger(Int64($0))) }),
            ("path", attributes.path.map(PropertyListValue.string)),
            ("label", attributes.label.map(PropertyListValue.string)),
            ("applicationTag", attributes.applicationTag.map(PropertyListValue.data)),
            ("accessGroup", attributes.accessGroup.map(PropertyListValue.string)),
            ("accessibility", attributes.accessibility.map { .string($0.name) }),
            ("created", item.creationDate.map(PropertyListValue.date)),
            ("modified", item.modificationDate.map(PropertyListValue.date)),
            ("data", item.data.map(PropertyListValue.data)),
        ]
        return optional.compactMap { key, value in value.map { (key, $0) } }
    }

    /// Strings as they are, dates in UTC, data as text when it is printable
    /// UTF-8 and as `<base64 …>` otherwise.
    private static func textValue(_ value: PropertyListValue) -> String {
        switch value {
        case .string(let text): return text
        case .integer(let number): return number.int64Value.map(String.init) ?? "\(number)"
        case .date(let date): return DateText.readable(date)
        case .data(let bytes):
            if let text = String(validating: bytes, as: UTF8.self),
               !text.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
                return text
            }
            return "<base64 \(bytes.base64EncodedString())>"
        default: return "\(value)"
        }
    }
}
