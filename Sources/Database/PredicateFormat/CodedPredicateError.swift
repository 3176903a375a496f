/// The shape shared by ``PredicateEvaluationError`` and ``PredicateSQLError``:
/// a code, the offending text, and a detail; the description names all three.
public protocol CodedPredicateError: Error, Sendable, Hashable, CustomStringConvertible {
    associatedtype Code: RawRepresentable<String>
    var code: Code { get }
    var text: String { get }
    var detail: String { get }
}

extension CodedPredicateError {
    public var description: String {
        "\(code.rawValue): \"\(text)\"" + (detail.isEmpty ? "" : " (\(detail))")
    }
}
