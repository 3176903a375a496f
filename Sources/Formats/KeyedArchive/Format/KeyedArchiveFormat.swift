/// The fixed names and numbers of Apple's keyed-archive layout.
///
/// An archive is a property-list dictionary
/// `{$archiver, $version, $top, $objects}`; `$objects[0]` is the string
/// `$null` and `UID(0)` means nil. Object dictionaries name their class with
/// `$class`, a reference to a `{$classname, $classes}` dictionary.
public enum KeyedArchiveFormat {
    /// The only `$archiver` value Apple's unarchiver accepts.
    public static let archiverName = "NSKeyedArchiver"
    /// The only `$version` Apple's unarchiver accepts.
    public static let version: Int64 = 100_000
    /// The top-level key `archiveRootObject:` and `archivedData(withRootObject:)` use.
    public static let rootKey = "root"
    /// The placeholder at `$objects[0]`.
    public static let nullMarker = "$null"

    static let archiverKey = "$archiver"
    static let versionKey = "$version"
    static let topKey = "$top"
    static let objectsKey = "$objects"
    static let classKey = "$class"
    static let classNameKey = "$classname"
    static let classesKey = "$classes"
    static let classHintsKey = "$classhints"

    /// The stored form of a coder key: keys that start with `$` get another
    /// `$` in front, so they cannot collide with `$class` or `$0`.
    public static func escape(_ key: String) -> String {
        key.utf8.first == UInt8(ascii: "$") ? "$" + key : key
    }

    /// The coder key a stored key came from, or `nil` for the archiver's own
    /// keys (`$class`, `$0`, `$1`, …), which no coder call wrote.
    public static func unescape(_ storedKey: String) -> String? {
        guard storedKey.utf8.first == UInt8(ascii: "$") else { return storedKey }
        let rest = storedKey.dropFirst()
        return rest.utf8.first == UInt8(ascii: "$") ? String(rest) : nil
    }

    /// The stored key of the `index`th value written without a key (`$0`, `$1`, …).
    public static func unkeyedKey(_ index: Int) -> String { "$\(index)" }

    /// The position of an un-keyed stored key (`$0` → 0), or `nil`.
    static func unkeyedIndex(_ storedKey: String) -> Int? {
        guard storedKey.utf8.first == UInt8(ascii: "$") else { return nil }
        let digits = storedKey.utf8.dropFirst()
        guard !digits.isEmpty, digits.count <= 9,
              digits.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else { return nil }
        return Int(storedKey.dropFirst())
    }
}
