import Preferences
import Testing

/// `PreferencesError` on CodedErrors' shared shape: built, matched and
/// read as when it was a struct of its own.
@Suite struct PreferencesErrorTests {
    @Test func readsPathThenMessage() {
        let error = PreferencesError(.corruptFile, path: "com.example.plist", "not a dictionary")
        #expect(error.description == "com.example.plist: not a dictionary")
        #expect(PreferencesError(.invalidDomainName, path: "", "empty name").description == "empty name")
        #expect(error.code == PreferencesError.Code.corruptFile)
        #expect(PreferencesError.Code(rawValue: "storageFailed") == .storageFailed)
    }

    @Test func typedThrowsCatchTheCode() {
        func read() throws(PreferencesError) { throw PreferencesError(.readOnlyDomain, path: "g", "read-only") }
        do { try read() } catch where error.code == .readOnlyDomain { } catch { Issue.record("\(error)") }
    }
}
