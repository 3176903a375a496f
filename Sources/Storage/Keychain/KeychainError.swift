import CodedErrors

/// A failed keychain operation: what went wrong (``KeychainErrorCode``, with
/// iOS's `OSStatus`), which operation, and a message for people.
public typealias KeychainError = CodedError<KeychainErrorCode>

/// The kinds of failure of a ``KeychainError``, each with the `OSStatus`
/// iOS returns for it.
public enum KeychainErrorCode: String, ErrorCode, CaseIterable {
    public typealias Context = KeychainErrorContext

    /// An add (or an update) would create a second item with the same
    /// identity (`errSecDuplicateItem`).
    case duplicateItem
    /// Nothing matched (`errSecItemNotFound`).
    case itemNotFound
    /// A matching item's class cannot be read in the device's lock state
    /// (`errSecInteractionNotAllowed`).
    case interactionNotAllowed
    /// The caller named an access group it is not entitled to, or has no
    /// groups at all (`errSecMissingEntitlement`).
    case missingEntitlement
    /// An attribute the item's class does not have (`errSecNoSuchAttr`).
    case noSuchAttribute
    /// A malformed request: an empty update, a negative port … (`errSecParam`).
    case invalidParameter
    /// A `whenPasscodeSetThisDeviceOnly` item on a device without a
    /// passcode (`errSecAuthFailed`, as recent iOS reports it).
    case passcodeNotSet
    /// A wrong backup password, a backup from another device, or a
    /// device secret that does not match the store (`errSecAuthFailed`).
    case authenticationFailed
    /// A backup or stored item that cannot be decoded (`errSecDecode`).
    case decodeFailed
    /// The store could not be opened, read or written (`errSecIO`).
    case storageFailed

    /// The `OSStatus` iOS's Security framework returns for this failure.
    public var osStatus: Int32 {
        switch self {
        case .duplicateItem: return -25299
        case .itemNotFound: return -25300
        case .interactionNotAllowed: return -25308
        case .missingEntitlement: return -34018
        case .noSuchAttribute: return -25303
        case .invalidParameter: return -50
        case .passcodeNotSet, .authenticationFailed: return -25293
        case .decodeFailed: return -26275
        case .storageFailed: return -36
        }
    }

    /// `operation: message (code, OSStatus n)`.
    public static func describe(_ error: KeychainError) -> String {
        let prefix = error.operation.map { "\($0.rawValue): " } ?? ""
        return "\(prefix)\(error.message) (\(error.code.rawValue), OSStatus \(error.code.osStatus))"
    }
}

/// The keychain operation that failed.
public enum KeychainOperation: String, Sendable, Hashable, CaseIterable {
    /// Opening the store.
    case open
    /// ``KeychainClient/add(_:_:data:)``.
    case add
    /// ``KeychainClient/update(_:with:)``.
    case update
    /// ``KeychainClient/query(_:)``.
    case query
    /// ``KeychainClient/delete(_:)`` or ``Keychain/reset()``.
    case delete
    /// Reading or changing the lock and passcode state.
    case deviceState
    /// ``Keychain/appUninstalled(_:remainingApps:)``.
    case uninstall
    /// ``Keychain/exportBackup(password:)``.
    case export
    /// ``Keychain/importBackup(_:password:)``.
    case `import`
}

/// What a ``KeychainError`` concerns.
public struct KeychainErrorContext: Hashable, Sendable {
    /// The operation, when known.
    public var operation: KeychainOperation?
}

extension KeychainError {
    /// The operation that failed, as `KeychainError.Operation`.
    public typealias Operation = KeychainOperation

    /// Creates an error.
    public init(_ code: Code, operation: Operation? = nil, _ message: String) {
        self.init(code, message, context: KeychainErrorContext(operation: operation))
    }

    /// The same error, attributed to `operation` unless it already has one.
    func during(_ operation: Operation) -> KeychainError {
        var copy = self
        copy.operation = copy.operation ?? operation
        return copy
    }
}
