import Foundation

/// An expression of the format language: a constant, `SELF`, a variable,
/// a key path, a collection literal or a `SUBQUERY`.
public indirect enum FormatExpression: Sendable, Hashable {
    /// A literal or a `%@`, `%d`, `%f` argument.
    case constant(AttributeValue)
    /// `SELF`: the object being evaluated.
    case evaluatedObject
    /// `$name`: a substitution variable, or the variable a `SUBQUERY` binds.
    case variable(String)
    /// `base.a.b.@count`: components applied to a base (usually ``evaluatedObject``).
    case keyPath(FormatExpression, [KeyPathComponent])
    /// `{a, b, c}`.
    case aggregate([FormatExpression])
    /// `SUBQUERY(collection, $variable, predicate)`: the members of `collection` for which `predicate` holds.
    case subquery(collection: FormatExpression, variable: String, predicate: FormatPredicate)

    /// A key path from the evaluated object, e.g. `.key("dept", "name")`.
    public static func key(_ components: String...) -> FormatExpression {
        .keyPath(.evaluatedObject, components.map(KeyPathComponent.key))
    }
}

/// One component of a key path.
public enum KeyPathComponent: Sendable, Hashable {
    /// An attribute or relationship name.
    case key(String)
    /// `@count`, `@sum`, `@avg`, `@min`, `@max`.
    case collectionOperator(CollectionOperator)
}

/// The collection operators.
public enum CollectionOperator: String, Sendable, Hashable, CaseIterable {
    case count, sum, avg, min, max
}
