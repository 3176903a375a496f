import Foundation
import Launch
import Testing

@Suite struct ContainerEnvironmentTests {
    @Test("every conventional location points into the container")
    func mapping() {
        let variables = ContainerEnvironment(container: "/d/C", bundle: "/d/B/App.app",
                                             inheriting: ["LANG": "fr_FR.UTF-8", "LC_TIME": "C",
                                                          "SSH_AUTH_SOCK": "/run/agent", "HOME": "/root",
                                                          "PATH": "/root/bin:/usr/bin"]).variables
        #expect(variables["HOME"] == "/d/C")
        #expect(variables["CFFIXED_USER_HOME"] == "/d/C")
        #expect(variables["TMPDIR"] == "/d/C/tmp/")
        #expect(variables["XDG_CONFIG_HOME"] == "/d/C/Library/Preferences")
        #expect(variables["XDG_CACHE_HOME"] == "/d/C/Library/Caches")
        #expect(variables["XDG_DATA_HOME"] == "/d/C/Library/Application Support")
        #expect(variables["XDG_STATE_HOME"] == "/d/C/Library/Application Support")
        #expect(variables["XDG_RUNTIME_DIR"] == "/d/C/tmp")
        #expect(variables["SANDBOX_CONTAINER"] == "/d/C")
        #expect(variables["SANDBOX_BUNDLE"] == "/d/B/App.app")
        #expect(variables["PATH"] == "/usr/local/bin:/usr/bin:/bin")
        #expect(variables["LANG"] == "fr_FR.UTF-8")
        #expect(variables["LC_TIME"] == "C")
        #expect(variables["SSH_AUTH_SOCK"] == nil)
    }

    @Test("an app launch allows its bundle, container root and data directories")
    func appRules() {
        let launch = ConfinedLaunch.app(executable: URL(fileURLWithPath: "/d/B/App.app/App"),
                                        bundle: URL(fileURLWithPath: "/d/B/App.app"),
                                        container: URL(fileURLWithPath: "/d/C"),
                                        environment: ["EXTRA": "1"])
        let rules = Dictionary(launch.rules.map { ($0.path, $0.access) }, uniquingKeysWith: { $0.union($1) })
        #expect(rules["/d/B/App.app"] == .readExecute)
        #expect(rules["/d/C"] == .read)
        #expect(rules["/d/C/Documents"] == .readWrite)
        #expect(rules["/d/C/Library"] == .readWrite)
        #expect(rules["/d/C/tmp"] == .readWrite)
        #expect(rules["/usr"] == .readExecute)
        #expect(rules.values.allSatisfy { !$0.contains(.writeFile) || !$0.contains(.execute) })
        #expect(launch.environment["EXTRA"] == "1")
        #expect(launch.workingDirectory?.path == "/d/C")
        #expect(rules["/d/C/Documents"] != nil && launch.rules.first { $0.path == "/d/C/Documents" }?.beneath == "/d/C")
        #expect(launch.libraryExclusions == ["/d"], "no run path opens another app's bundle or container")
    }
}
