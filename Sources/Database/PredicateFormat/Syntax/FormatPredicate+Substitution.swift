extension FormatPredicate {
    /// A copy with every free `$VARIABLE` replaced by its value, as
    /// `-[NSPredicate predicateWithSubstitutionVariables:]` does. Variables that a
    /// `SUBQUERY` binds are left alone.
    ///
    /// - Throws: ``PredicateFormatError`` with code `unknownVariable` for a free
    ///   variable missing from `variables`.
    public func substituting(_ variables: [String: AttributeValue]) throws(PredicateFormatError) -> FormatPredicate {
        try substituting(variables, bound: [])
    }

    /// The names of the free `$VARIABLE`s, those a substitution must supply.
    public var variableNames: Set<String> {
        var names: Set<String> = []
        collectVariables(into: &names, bound: [])
        return names
    }

    func substituting(_ variables: [String: AttributeValue], bound: Set<String>) throws(PredicateFormatError) -> FormatPredicate {
        switch self {
        case .constant: return self
        case .comparison(var comparison):
            comparison.left = try comparison.left.substituting(variables, bound: bound)
            comparison.right = try comparison.right.substituting(variables, bound: bound)
            return .comparison(comparison)
        case .not(let inner): return .not(try inner.substituting(variables, bound: bound))
        case .and(let terms):
            var result: [FormatPredicate] = []
            for term in terms { result.append(try term.substituting(variables, bound: bound)) }
            return .and(result)
        case .or(let terms):
            var result: [FormatPredicate] = []
            for term in terms { result.append(try term.substituting(variables, bound: bound)) }
            return .or(result)
        }
    }

    func collectVariables(into names: inout Set<String>, bound: Set<String>) {
        switch self {
        case .constant: break
        case .comparison(let comparison):
            comparison.left.collectVariables(into: &names, bound: bound)
            comparison.right.collectVariables(into: &names, bound: bound)
        case .not(let inner): inner.collectVariables(into: &names, bound: bound)
        case .and(let terms), .or(let terms):
            for term in terms { term.collectVariables(into: &names, bound: bound) }
        }
    }
}

extension FormatExpression {
    func substituting(_ variables: [String: AttributeValue], bound: Set<String>) throws(PredicateFormatError) -> FormatExpression {
        switch self {
        case .constant, .evaluatedObject: return self
        case .variable(let name):
            if bound.contains(name) { return self }
            guard let value = variables[name] else {
                throw PredicateFormatError(.unknownVariable, column: nil, text: "$" + name, detail: "no value to substitute")
            }
            return .constant(value)
        case .keyPath(let base, let components):
            let substituted = try base.substituting(variables, bound: bound)
            if case .constant(let value) = substituted, !Self.isCollection(value) {
                throw PredicateFormatError(.invalidOperand, column: nil, text: base.description,
                                           detail: "a substituted value has no keys")
            }
            return .keyPath(substituted, components)
        case .aggregate(let members):
            var result: [FormatExpression] = []
            for member in members { result.append(try member.substituting(variables, bound: bound)) }
            if result.allSatisfy({ if case .constant = $0 { true } else { false } }) {
                return .constant(.collection(result.compactMap { if case .constant(let value) = $0 { value } else { nil } }))
            }
            return .aggregate(result)
        case .subquery(let collection, let variable, let predicate):
            return .subquery(
                collection: try collection.substituting(variables, bound: bound), variable: variable,
                predicate: try predicate.substituting(variables, bound: bound.union([variable])))
        }
    }

    private static func isCollection(_ value: AttributeValue) -> Bool {
        if case .collection = value { return true }
        return false
    }

    func collectVariables(into names: inout Set<String>, bound: Set<String>) {
        switch self {
        case .constant, .evaluatedObject: break
        case .variable(let name): if !bound.contains(name) { names.insert(name) }
        case .keyPath(let base, _): base.collectVariables(into: &names, bound: bound)
        case .aggregate(let members): for member in members { member.collectVariables(into: &names, bound: bound) }
        case .subquery(let collection, let variable, let predicate):
            collection.collectVariables(into: &names, bound: bound)
            predicate.collectVariables(into: &names, bound: bound.union([variable]))
        }
    }
}
