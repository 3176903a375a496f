/// A class description as an archive stores it: `{$classname, $classes, $classhints}`.
///
/// `classes` is the chain from the class itself up to its root class
/// (`["NSMutableArray", "NSArray", "NSObject"]`); readers use it to fall
/// back to a superclass they know.
public struct KeyedArchiveClass: Hashable, Sendable, CustomStringConvertible {
    /// The class name (`$classname`).
    public var name: String
    /// The class chain, the class itself first (`$classes`).
    public var classes: [String]
    /// Optional alternative class names (`$classhints`).
    public var hints: [String]?

    /// Creates a class description; the chain is `name` followed by `superclasses`.
    public init(_ name: String, superclasses: [String] = ["NSObject"], hints: [String]? = nil) {
        self.name = name
        self.classes = [name] + superclasses
        self.hints = hints
    }

    /// Creates a class description from an explicit chain.
    public init(name: String, classes: [String], hints: [String]? = nil) {
        self.name = name
        self.classes = classes
        self.hints = hints
    }

    public var description: String { classes.joined(separator: " : ") }

    /// Whether this class or one of its superclasses is named `name`.
    public func isKind(of name: String) -> Bool {
        self.name == name || classes.contains(name)
    }
}

extension KeyedArchiveClass {
    static let array = KeyedArchiveClass("NSArray")
    static let mutableArray = KeyedArchiveClass("NSMutableArray", superclasses: ["NSArray", "NSObject"])
    static let dictionary = KeyedArchiveClass("NSDictionary")
    static let set = KeyedArchiveClass("NSSet")
    static let orderedSet = KeyedArchiveClass("NSOrderedSet")
    static let countedSet = KeyedArchiveClass("NSCountedSet", superclasses: ["NSMutableSet", "NSSet", "NSObject"])
    static let mutableString = KeyedArchiveClass("NSMutableString", superclasses: ["NSString", "NSObject"])
    static let mutableData = KeyedArchiveClass("NSMutableData", superclasses: ["NSData", "NSObject"])
    static let date = KeyedArchiveClass("NSDate")
    static let uuid = KeyedArchiveClass("NSUUID")
    static let url = KeyedArchiveClass("NSURL")
    static let null = KeyedArchiveClass("NSNull")
    static let value = KeyedArchiveClass("NSValue")
    static let number = KeyedArchiveClass("NSNumber", superclasses: ["NSValue", "NSObject"])
}
