/// An error made from another one that it keeps, as its ``underlying``
/// cause, rather than copying the other's words into its message.
///
/// A layer that catches a failure and throws its own error says what *it*
/// was doing and keeps the failure beneath: so a caller at the top can still
/// ask what happened at the bottom (a full disk, an exhausted quota) through
/// `causeChain`, `firstCause(of:)`, `isDiskFull` and
/// `isOverQuota` (on every `Error`).
///
/// ```swift
/// do { try prefs.flush(durability: .durable) }
/// catch where error.isDiskFull { … }                     // at any depth
/// catch { let cause = error.firstCause(of: FileSystemError.self) … }
/// ```
public protocol CausedError: Error {
    /// The error this one was made from, if any.
    var underlying: (any Error)? { get }
}

extension CausedError {
    /// `own` (this error's words), then `: ` and the cause's description:
    /// each is said once, so `own` alone when it already quotes the cause,
    /// the cause alone when it already says all `own` does (an error that
    /// only re-types another, keeping its message and path), and the words
    /// `own` ends with once when the cause begins with them (`cannot write`
    /// and `cannot write: No space left on device`).
    public func describing(_ own: String) -> String {
        guard let underlying else { return own }
        let cause = "\(underlying)"
        if own.contains(cause) { return own }
        if cause.contains(own) { return cause }
        let last = own.split(separator: ": ").last.map(String.init) ?? own
        if !last.isEmpty, cause.hasPrefix(last), cause.dropFirst(last.count).first.map({ $0 == " " || $0 == ":" }) ?? true {
            return own + cause.dropFirst(last.count)
        }
        return own + ": " + cause
    }
}

/// A kind of failure a caller at the top may want to tell apart, whatever
/// layer and module it happened in.
public enum FailureKind: Hashable, Sendable {
    /// The device, file system or storage engine has no room left
    /// (`ENOSPC`, `EDQUOT`, `SQLITE_FULL`).
    case noSpace
    /// An account's storage quota would be passed (iCloud storage is full).
    case overQuota
}

/// An error that says which ``FailureKind`` it is, when it is one.
public protocol ClassifiedError: Error {
    /// The failure's kind, or nil when it is none of the kinds.
    var failureKind: FailureKind? { get }
}

extension Error {
    /// This error, then its cause, then that one's cause… as far as the
    /// errors keep them (``CausedError``), and at most 16 deep, so a chain
    /// that loops back on itself still ends.
    public var causeChain: [any Error] {
        var chain: [any Error] = [self]
        var error: any Error = self
        while chain.count < 16, let next = (error as? any CausedError)?.underlying {
            chain.append(next)
            error = next
        }
        return chain
    }

    /// The first error of type `T` in the `causeChain` (this error
    /// itself when it is a `T`), or nil.
    public func firstCause<T: Error>(of type: T.Type = T.self) -> T? {
        for error in causeChain {
            if let error = error as? T { return error }
        }
        return nil
    }

    /// Whether this error or one of its causes is a full disk or storage
    /// engine (``FailureKind/noSpace``).
    public var isDiskFull: Bool { hasCause(of: .noSpace) }

    /// Whether this error or one of its causes is an exhausted storage
    /// quota (``FailureKind/overQuota``).
    public var isOverQuota: Bool { hasCause(of: .overQuota) }

    /// Whether an error of the chain is of `kind`.
    public func hasCause(of kind: FailureKind) -> Bool {
        causeChain.contains { ($0 as? any ClassifiedError)?.failureKind == kind }
    }
}

/// The stored cause of an error struct that is not a ``CodedError``, left
/// out of the struct's synthesized `==` and hash: every two are equal, so
/// errors that say the same are equal whatever they were made from (as
/// ``CodedError``'s are), and the struct's other fields need no
/// hand-written comparison.
///
/// ```swift
/// public struct NetworkError: Error, Equatable, CausedError {
///     public var code: Code
///     @UncomparedCause public var underlying: (any Error)? = nil
/// }
/// ```
@propertyWrapper
public struct UncomparedCause: Hashable, Sendable {
    /// The cause, if any.
    public var wrappedValue: (any Error)?

    /// Stores `wrappedValue`.
    public init(wrappedValue: (any Error)?) {
        self.wrappedValue = wrappedValue
    }

    /// Always true: causes are not compared.
    public static func == (lhs: Self, rhs: Self) -> Bool { true }

    /// Adds nothing: causes are not hashed.
    public func hash(into hasher: inout Hasher) {}
}
