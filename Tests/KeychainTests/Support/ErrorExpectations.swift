import Keychain
import Testing

/// Checks that `body` throws a ``KeychainError`` with `code`, and returns it.
@discardableResult
func expectKeychainError<T>(
    _ code: KeychainError.Code, sourceLocation: SourceLocation = #_sourceLocation, _ body: () throws -> T
) -> KeychainError? {
    do {
        _ = try body()
        Issue.record("expected \(code), but nothing was thrown", sourceLocation: sourceLocation)
    } catch let error as KeychainError {
        #expect(error.code == code, "\(error)", sourceLocation: sourceLocation)
        return error
    } catch {
        Issue.record("expected a KeychainError \(code), got \(error)", sourceLocation: sourceLocation)
    }
    return nil
}
