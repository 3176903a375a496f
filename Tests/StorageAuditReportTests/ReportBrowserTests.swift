import Foundation
import StorageAudit
import StorageAuditReport
import TestSupport
import Testing

/// The page as a browser draws it: headless Chromium's screenshot, read by
/// Pillow, is not blank and shows the categories' colours.
@Suite struct ReportBrowserTests {
    @Test(.enabled(if: SystemTool.shouldRun(needing: "chromium"), "chromium is not installed (Debian: chromium); CI is unset"),
          .timeLimit(.minutes(3)), arguments: ["ordinary", "hostile"])
    func chromiumDrawsTheReport(_ name: String) throws {
        let temp = try TemporaryDirectory("report-chromium")
        let audit = name == "ordinary" ? ReportFixture.ordinary : ReportFixture.hostile
        let page = try ReportFixture.write(audit, in: temp)
        let png = temp.file("report.png")
        try HeadlessChromium.screenshot(of: page, to: png, scratch: temp)
        // Kept with `swift test --attachments-path DIR`, to look at.
        Attachment.record(try temp.read("report.png"), named: "storage-report-\(name).png")

        let colours = StorageCategory.allCases.map(\.style.htmlColour)
        let pixels = try ReportOracle.pixels(png, colours: colours)
        #expect(pixels.width == 1280 && pixels.height == 2000)
        #expect(pixels.dominantShare < 0.8, "one colour covers \(Int(pixels.dominantShare * 100)) % of the picture")
        #expect(pixels.distinct > 50, "only \(pixels.distinct) colours")
        // Every category with bytes is drawn: its tiles in the treemap, its
        // segments in the bars (a tile of the smallest here is over 200 px²).
        for category in StorageCategory.allCases {
            let bytes = audit.apps.reduce(UInt64(0)) { $0 + $1.usage(of: category).allocatedBytes }
            guard bytes >= 4096 else { continue }
            let drawn = pixels.colours[category.style.htmlColour] ?? 0
            #expect(drawn >= 100, "\(category.style.name) (\(category.style.htmlColour)): \(drawn) pixels")
        }
    }
}
