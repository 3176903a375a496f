import Foundation
import Preferences
import PropertyList
import TestSupport
import Testing

/// App-group suites: one domain in the shared container for an app and its extensions.
@Suite struct SuiteTests {
    @Test func anAppAndItsExtensionShareTheSuite() throws {
        let group = try TemporaryDirectory()
        let app = try Preferences(suiteName: "group.com.example", groupContainer: group.url,
                                  configuration: .init(coalescingDelay: nil, sharesDomainsInProcess: false))
        let widget = try Preferences(suiteName: "group.com.example", groupContainer: group.url,
                                     configuration: .init(coalescingDelay: nil, sharesDomainsInProcess: false))
        app.set("from app", forKey: "Shared")
        try app.synchronize()
        try widget.synchronize()
        #expect(widget.string(forKey: "Shared") == "from app")
        #expect(app.domainPath == group.url.appendingPathComponent("Library/Preferences/group.com.example.plist").path)
    }

    @Test(arguments: ["", "a/b", "NSGlobalDomain", "com.example.app", ".hidden"])
    func invalidSuiteNamesAreRefused(name: String) throws {
        let group = try TemporaryDirectory()
        #expect {
            try Preferences(suiteName: name, groupContainer: group.url, applicationIdentifier: "com.example.app")
        } throws: { error in
            (error as? PreferencesError)?.code == .invalidDomainName
        }
    }
}
