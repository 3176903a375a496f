import Foundation
import PropertyList

/// The geometry values `NSValue` archives specially (`NS.special`): points,
/// sizes and rectangles as strings such as `{{400, 300}, {200, 300}}`,
/// ranges as two numbers, edge insets as four reals.
public enum KeyedArchiveSpecialValue: Hashable, Sendable, KeyedArchiveRepresentable {
    /// `NSPoint`/`CGPoint` (`NS.special` 1, `NS.pointval`).
    case point(x: Double, y: Double)
    /// `NSSize`/`CGSize` (`NS.special` 2, `NS.sizeval`).
    case size(width: Double, height: Double)
    /// `NSRect`/`CGRect` (`NS.special` 3, `NS.rectval`).
    case rect(x: Double, y: Double, width: Double, height: Double)
    /// `NSRange` (`NS.special` 4, `NS.rangeval.location`/`.length`).
    case range(location: Int, length: Int)
    /// `NSEdgeInsets` (`NS.special` 12, `NS.edgeval.top`/`left`/`bottom`/`right`).
    case edgeInsets(top: Double, left: Double, bottom: Double, right: Double)

    /// `NSValue`.
    public static var keyedArchiveClassNames: [String] { ["NSValue"] }

    /// The `NS.special` code Foundation writes for this kind.
    public var specialCode: Int {
        switch self {
        case .point: 1
        case .size: 2
        case .rect: 3
        case .range: 4
        case .edgeInsets: 12
        }
    }

    /// Stores an `NSValue` object with `NS.special` and its fields.
    public func archive(with archiver: KeyedArchiver) throws -> PropertyListUID {
        try archiver.encodeObject(class: .value, identity: nil) { coder in
            coder.encodeInteger(specialCode, forKey: FoundationKeys.special)
            switch self {
            case .point(let x, let y):
                try coder.encode(Self.text([x, y]), forKey: "NS.pointval")
            case .size(let width, let height):
                try coder.encode(Self.text([width, height]), forKey: "NS.sizeval")
            case .rect(let x, let y, let width, let height):
                try coder.encode("{\(Self.text([x, y])), \(Self.text([width, height]))}", forKey: "NS.rectval")
            case .range(let location, let length):
                try coder.encode(location, forKey: "NS.rangeval.location")
                try coder.encode(length, forKey: "NS.rangeval.length")
            case .edgeInsets(let top, let left, let bottom, let right):
                coder.encodeDouble(top, forKey: "NS.edgeval.top")
                coder.encodeDouble(left, forKey: "NS.edgeval.left")
                coder.encodeDouble(bottom, forKey: "NS.edgeval.bottom")
                coder.encodeDouble(right, forKey: "NS.edgeval.right")
            }
        }
    }

    /// Reads an `NSValue` with a known `NS.special`; other NSValues are a type mismatch.
    public static func unarchive(_ reference: PropertyListUID, with unarchiver: KeyedUnarchiver) throws -> Self {
        try unarchiver.decodeObject(at: reference, acceptingClassNames: keyedArchiveClassNames) { coder, _ in
            let code = try coder.decodeInteger(forKey: FoundationKeys.special)
            switch code {
            case 1:
                let numbers = try numbers(coder, "NS.pointval", count: 2)
                return .point(x: numbers[0], y: numbers[1])
            case 2:
                let numbers = try numbers(coder, "NS.sizeval", count: 2)
                return .size(width: numbers[0], height: numbers[1])
            case 3:
                let numbers = try numbers(coder, "NS.rectval", count: 4)
                return .rect(x: numbers[0], y: numbers[1], width: numbers[2], height: numbers[3])
            case 4:
                return .range(location: try coder.decodeInteger(forKey: "NS.rangeval.location"),
                              length: try coder.decodeInteger(forKey: "NS.rangeval.length"))
            case 12:
                return .edgeInsets(top: try coder.decodeDouble(forKey: "NS.edgeval.top"), left: try coder.decodeDouble(forKey: "NS.edgeval.left"),
                                   bottom: try coder.decodeDouble(forKey: "NS.edgeval.bottom"), right: try coder.decodeDouble(forKey: "NS.edgeval.right"))
            default:
                throw KeyedArchiveError(.typeMismatch, objectIndex: coder.currentIndex, key: FoundationKeys.special,
                                        "NSValue with NS.special \(code) is not a point, size, rect, range or edge insets")
            }
        }
    }

    /// `{a, b}` with each number as `%g` writes it (`400`, `0.5`).
    static func text(_ numbers: [Double]) -> String {
        "{" + numbers.map { $0 == $0.rounded() && abs($0) < 1e15 ? String(Int64($0)) : String($0) }.joined(separator: ", ") + "}"
    }

    /// The numbers in a geometry string such as `{{1, 2}, {3, 4}}`.
    static func parse(_ text: String) -> [Double]? {
        let cleaned = text.replacingOccurrences(of: "{", with: " ").replacingOccurrences(of: "}", with: " ")
        var numbers: [Double] = []
        for part in cleaned.split(separator: ",") {
            guard let number = Double(part.trimmingCharacters(in: .whitespaces)) else { return nil }
            numbers.append(number)
        }
        return numbers
    }

    private static func numbers(_ coder: KeyedUnarchiver, _ key: String, count: Int) throws -> [Double] {
        guard let text = try coder.decodeInlineOrReference(String.self, forKey: key) else {
            throw KeyedArchiveError(.keyNotFound, objectIndex: coder.currentIndex, key: key, "the NSValue has no \(key)")
        }
        guard let numbers = parse(text), numbers.count == count else {
            throw KeyedArchiveError(.typeMismatch, objectIndex: coder.currentIndex, key: key, "\(InputExcerpt.quoted(text)) is not \(count) numbers")
        }
        return numbers
    }
}
