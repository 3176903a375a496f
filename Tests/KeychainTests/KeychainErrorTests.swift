import Keychain
import Testing

/// The error type: iOS's status codes and a readable description.
@Suite struct KeychainErrorTests {
    @Test(arguments: [
        (KeychainError.Code.duplicateItem, Int32(-25299)),
        (.itemNotFound, -25300),
        (.interactionNotAllowed, -25308),
        (.missingEntitlement, -34018),
        (.noSuchAttribute, -25303),
        (.invalidParameter, -50),
        (.passcodeNotSet, -25293),
        (.authenticationFailed, -25293),
        (.decodeFailed, -26275),
        (.storageFailed, -36),
    ])
    func codesCarryIOSStatus(code: KeychainError.Code, status: Int32) {
        #expect(code.osStatus == status)
    }

    @Test func descriptionNamesOperationCodeAndStatus() {
        let error = KeychainError(.itemNotFound, operation: .query, "no item matches the query")
        #expect(error.description == "query: no item matches the query (itemNotFound, OSStatus -25300)")
    }
}
