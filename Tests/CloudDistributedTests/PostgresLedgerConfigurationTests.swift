import CloudService
import Testing

/// ``PostgresLedgerConfiguration/init(url:)``: what it takes, what it
/// refuses and why, and that no password reaches a description.
@Suite struct PostgresLedgerConfigurationTests {
    @Test func readsEveryPartOfAURL() throws {
        let configuration = try PostgresLedgerConfiguration(
            url: "postgresql://led%40ger:p%3Ass%2Fw0rd@db.example:6543/cloud%20ledger?sslmode=require&pool_size=16")
        #expect(configuration.host == "db.example")
        #expect(configuration.port == 6543)
        #expect(configuration.user == "led@ger")
        #expect(configuration.password == "p:ss/w0rd")
        #expect(configuration.database == "cloud ledger")
        #expect(configuration.tls == .require)
        #expect(configuration.poolSize == 16)
        #expect(configuration.endpoint == "db.example:6543")
    }

    @Test func fillsInDefaults() throws {
        let configuration = try PostgresLedgerConfiguration(url: "postgres://ledger@127.0.0.1/ledger")
        #expect(configuration.port == 5432)
        #expect(configuration.password == "")
        #expect(configuration.tls == .disable)
        #expect(configuration.poolSize == PostgresLedgerConfiguration.defaultPoolSize)
        #expect(configuration.isolationLevel == .readCommitted)
        #expect(configuration.maximumRetries == 8)
    }

    @Test func bracketsAnIPv6Endpoint() throws {
        let configuration = try PostgresLedgerConfiguration(url: "postgres://ledger@[::1]:5433/ledger")
        #expect(configuration.host == "::1")
        #expect(configuration.endpoint == "[::1]:5433")
    }

    @Test(arguments: [
        ("mysql://u:p@h/db", PostgresLedgerURLError.Code.unsupportedScheme),
        ("//u:p@h/db", .unsupportedScheme),
        ("postgres://u:p@/db", .missingHost),
        ("postgres://h:5432/db", .missingUser),
        ("postgres://u:p@h:5432", .missingDatabase),
        ("postgres://u:p@h:5432/", .missingDatabase),
        ("postgres://u:p@h:5432/a/b", .missingDatabase),
        ("postgres://u:p@h:0/db", .badPort),
        ("postgres://u:p@h/db?sslmode=verify-full", .badParameter),
        ("postgres://u:p@h/db?pool_size=0", .badParameter),
        ("postgres://u:p@h/db?pool_size=many", .badParameter),
        ("postgres://u:p@h/db?application_name=x", .badParameter),
        ("postgres://u:p@h:port/db", .malformed),
    ])
    func refusesABadURL(url: String, code: PostgresLedgerURLError.Code) {
        do throws(PostgresLedgerURLError) {
            let configuration = try PostgresLedgerConfiguration(url: url)
            Issue.record("\(url) was read as \(configuration)")
        } catch {
            #expect(error.code == code, "\(error)")
        }
    }

    @Test func neverShowsThePassword() throws {
        let configuration = try PostgresLedgerConfiguration(url: "postgres://ledger:hunter2@h/db")
        #expect(configuration.description == "postgres://ledger:***@h:5432/db")
        do throws(PostgresLedgerURLError) {
            _ = try PostgresLedgerConfiguration(url: "postgres://ledger:hunter2@h/db?pool_size=-1")
            Issue.record("a negative pool size was accepted")
        } catch {
            #expect(!error.description.contains("hunter2"))
            #expect(error.url == "postgres://ledger:***@h/db?pool_size=-1")
        }
    }
}
