import CodedErrors

/// A preferences operation that failed, with what it was about: a
/// ``PreferencesErrorCode``, the file or domain concerned, and a sentence
/// for people (described `<path>: <message>`).
///
/// ```swift
/// do { try prefs.synchronize() }
/// catch let error as PreferencesError where error.code == .storageFailed { … }
/// ```
public typealias PreferencesError = CodedError<PreferencesErrorCode>

/// What went wrong in a ``PreferencesError``.
public enum PreferencesErrorCode: String, ErrorCode {
    /// A domain or suite name that cannot name a preferences file
    /// (empty, containing `/`, or one Foundation refuses as a suite).
    case invalidDomainName
    /// A value that a property list cannot hold, or a `Codable` value
    /// that did not encode or decode.
    case invalidValue
    /// The preferences file exists but is not a property-list dictionary.
    case corruptFile
    /// Reading, writing or locking the preferences file failed.
    case storageFailed
    /// The domain is read-only from here (the global domain of an app).
    case readOnlyDomain
}
