import Foundation
import StorageAudit
import StorageAuditReport
import TestSupport
import Testing

/// The HTML page: the same audit gives the same bytes, text from the device
/// cannot break out of its markup, the page loads nothing, and xmllint
/// accepts it as HTML and as XML.
@Suite struct ReportPageTests {
    @Test func sameAuditSameBytes() {
        let first = StorageReportPage(audit: ReportFixture.ordinary).render()
        let second = StorageReportPage(audit: ReportFixture.ordinary).render()
        #expect(first == second)
        #expect(StorageReportPage(audit: ReportFixture.hostile).render() == StorageReportPage(audit: ReportFixture.hostile).render())
        // A different audit gives a different page (the test above is not vacuous).
        #expect(StorageReportPage(audit: ReportFixture.hostile).render() != first)
    }

    @Test func selfContainedWithoutScript() {
        let page = StorageReportPage(audit: ReportFixture.ordinary).render()
        let lowered = page.lowercased()
        for forbidden in ["<script", "<link", "<iframe", "<img", " src=", "url(", "@import", "javascript:"] {
            #expect(!lowered.contains(forbidden), "the page contains \(forbidden)")
        }
        // The only address is the SVG namespace, which is a name, not a load.
        #expect(lowered.components(separatedBy: "http").count - 1 == 1)
        #expect(page.hasPrefix("<!DOCTYPE html>"))
        #expect(page.contains("<meta charset=\"UTF-8\"/>"))
    }

    @Test func showsEveryPart() {
        let page = StorageReportPage(audit: ReportFixture.ordinary).render()
        #expect(page.contains("Storage audit: Demo iPhone"))
        for id in ["storage", "treemap", "findings", "icloud", "apps"] { #expect(page.contains("id=\"\(id)\"")) }
        // Each finding links to its rule's entry, which names its section.
        #expect(page.contains("href=\"#rule-a1\"") && page.contains("id=\"rule-a1\""))
        #expect(page.contains("docs/STORAGE-RULES.md#a3"))
        #expect(page.contains("Turning its iCloud Backup off saves"))
        // The treemap's tiles: one per category with bytes, coloured as the terminal's bars.
        let audit = ReportFixture.ordinary
        let tiles = audit.apps.reduce(0) { $0 + $1.categories.filter { $0.usage.allocatedBytes > 0 }.count }
        let treemap = page.components(separatedBy: "<svg")[1].components(separatedBy: "</svg>")[0]
        #expect(treemap.components(separatedBy: "stroke-width=\"1\"").count - 1 == tiles)
        for category in StorageCategory.allCases { #expect(treemap.contains("fill=\"\(category.style.htmlColour)\"")) }
    }

    @Test func hostileTextIsEscaped() throws {
        let page = StorageReportPage(audit: ReportFixture.hostile).render()
        let lowered = page.lowercased()
        #expect(!lowered.contains("<script"))
        #expect(!lowered.contains("<b>") && !lowered.contains("<i>"))
        #expect(!lowered.contains("&d;"), "an entity-like name stays text")

        let temp = try TemporaryDirectory("report-hostile")
        let file = try ReportFixture.write(ReportFixture.hostile, in: temp)
        let parsed = try ReportOracle.parse(file)
        for (parser, summary) in [("html.parser", parsed.html), ("xml.etree", parsed.xml)] {
            #expect(summary.error == nil, "\(parser): \(summary.error ?? "")")
            let elements = summary.elements ?? [:]
            for tag in ["script", "b", "i", "iframe", "img"] { #expect(elements[tag] == nil, "\(parser) found <\(tag)>") }
            #expect(summary.eventAttributes?.isEmpty == true, "\(parser): \(summary.eventAttributes ?? [])")
            #expect(summary.sources?.isEmpty == true)
            #expect(summary.links?.allSatisfy { $0.hasPrefix("#rule-") } == true, "\(parser): \(summary.links ?? [])")
            // The paths read back exactly as shown, each once in the findings table.
            for (path, shown) in ReportFixture.hostilePaths {
                #expect(summary.code?.filter { $0 == shown }.count == 1, "\(parser) did not read back \(path.debugDescription)")
            }
            #expect(summary.titles?.first == "Storage audit: Evil & <b>Co</b> 'phone' \"x\"")
        }
    }

    /// A backup takes a group's shared container whichever app's toggle is
    /// on: the groups get a row of their own, with no toggle, and the total
    /// counts them.
    @Test func theICloudTableCountsTheGroupsInARowOfTheirOwn() throws {
        var usage = StorageUsage()
        usage.backupBytes = 250_000_000
        let base = ReportFixture.ordinary
        let audit = DeviceStorageAudit(device: base.device, apps: base.apps,
                                       groups: [GroupStorageAudit(identifier: "group.com.example.shared", apps: ["com.example.one"], usage: usage)])
        #expect(audit.iCloud.groupBackupBytes == 250_000_000)
        #expect(audit.iCloud.backupBytes == base.iCloud.backupBytes + 250_000_000)
        let page = StorageReportPage(audit: audit).render()
        #expect(page.contains("App groups&#39; shared containers") || page.contains("App groups' shared containers"))
        #expect(page.contains("All apps and groups"))
        #expect(!StorageReportPage(audit: base).render().contains("shared containers"))
    }

    @Test(.enabled(if: SystemTool.shouldRun(needing: "xmllint"), "xmllint is not installed (Debian: libxml2-utils); CI is unset"),
          arguments: ["ordinary", "hostile", "empty"])
    func xmllintAcceptsThePage(_ name: String) throws {
        let audit = switch name {
        case "ordinary": ReportFixture.ordinary
        case "hostile": ReportFixture.hostile
        default: DeviceStorageAudit(device: "Empty", apps: [])
        }
        let temp = try TemporaryDirectory("report-xmllint")
        let file = try ReportFixture.write(audit, in: temp)
        let problems = try Xmllint.htmlProblems(file)
        #expect(problems.isEmpty, "xmllint --html: \(problems)")
        let xml = try Xmllint.xmlOutput(file)
        #expect(xml.status == 0 && xml.output.isEmpty, "xmllint (XML): \(xml.output)")
    }
}
