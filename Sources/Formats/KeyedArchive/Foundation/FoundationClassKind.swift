/// The Foundation classes this module knows, found by walking an archived
/// class chain from the class itself towards `NSObject`, so subclasses
/// (`NSMutableArray`, private `__NSCFString`-like names with a public
/// superclass) are read as their nearest known class.
enum FoundationClassKind {
    case string, data, number, date, array, set, countedSet, orderedSet, dictionary, uuid, url, null, value

    init?(_ archiveClass: KeyedArchiveClass) {
        for name in archiveClass.classes {
            if let kind = Self.byName[name] {
                self = kind
                return
            }
        }
        return nil
    }

    static let byName: [String: FoundationClassKind] = [
        "NSString": .string, "NSMutableString": .string,
        "NSData": .data, "NSMutableData": .data,
        "NSNumber": .number,
        "NSDate": .date,
        "NSArray": .array, "NSMutableArray": .array,
        "NSSet": .set, "NSMutableSet": .set,
        "NSCountedSet": .countedSet,
        "NSOrderedSet": .orderedSet, "NSMutableOrderedSet": .orderedSet,
        "NSDictionary": .dictionary, "NSMutableDictionary": .dictionary,
        "NSUUID": .uuid,
        "NSURL": .url,
        "NSNull": .null,
        "NSValue": .value,
    ]
}
