import Foundation
import TestSupport
import Testing

/// `xmllint` on a report: the HTML parser (which must report nothing but
/// the SVG elements its HTML 4 tables do not know) and the XML parser
/// (which must report nothing at all).
enum Xmllint {
    /// The SVG elements the report uses. libxml2 2.9's HTML parser predates
    /// HTML5's foreign content and reports each as "Tag X invalid"; nothing
    /// else is excused.
    static let svgElements: Set<String> = ["svg", "g", "rect", "text", "title"]

    /// The messages of `xmllint --html --noout` that are not an excused
    /// "Tag X invalid" (each message without its echoed source lines).
    static func htmlProblems(_ file: URL) throws -> [String] {
        let result = try run(["--html", "--noout", file.path])
        let messages = result.errorLines.filter { $0.hasPrefix(file.path + ":") }
        let echoed = result.errorLines.count - messages.count
        let problems = messages.filter { line in
            guard let range = line.range(of: "HTML parser error : Tag ") else { return true }
            let rest = line[range.upperBound...]
            guard rest.hasSuffix(" invalid") else { return true }
            return !svgElements.contains(String(rest.dropLast(" invalid".count)))
        }
        // Each message echoes its source line and a caret: two lines, no more.
        return problems + (echoed == 2 * messages.count ? [] : ["unexpected output: \(result.standardError)"])
            + (result.output.isEmpty ? [] : ["standard output: \(result.output)"])
    }

    /// Everything `xmllint --noout` (strict XML) printed, and its status.
    static func xmlOutput(_ file: URL) throws -> (status: Int32, output: String) {
        let result = try run(["--noout", file.path])
        return (result.status, result.output + result.standardError)
    }

    private static func run(_ arguments: [String]) throws -> ChildProcess.Result {
        let xmllint = try #require(SystemTool.locate("xmllint"), "xmllint is not installed (Debian: libxml2-utils)")
        return try ChildProcess.run(xmllint, arguments)
    }
}

/// `Tests/Oracles/report_oracle.py`: Python's own HTML and XML parsers, and
/// Pillow for screenshots.
enum ReportOracle {
    static let script = BuiltExecutable.packageRoot.appendingPathComponent("Tests/Oracles/report_oracle.py")

    /// What one parser found in the page.
    struct Summary: Decodable {
        var elements: [String: Int]?
        var code: [String]?
        var titles: [String]?
        var links: [String]?
        var sources: [String]?
        var eventAttributes: [String]?
        var error: String?

        enum CodingKeys: String, CodingKey {
            case elements, code, titles, links, sources, error
            case eventAttributes = "event_attributes"
        }
    }

    struct Parsed: Decodable {
        var html: Summary
        var xml: Summary
    }

    struct Pixels: Decodable {
        var width: Int
        var height: Int
        var dominantShare: Double
        var distinct: Int
        var colours: [String: Int]

        enum CodingKeys: String, CodingKey {
            case width, height, distinct, colours
            case dominantShare = "dominant_share"
        }
    }

    static func parse(_ file: URL) throws -> Parsed {
        try decode(Parsed.self, ["parse", file.path])
    }

    static func pixels(_ png: URL, colours: [String]) throws -> Pixels {
        try decode(Pixels.self, ["pixels", png.path] + colours)
    }

    private static func decode<T: Decodable>(_ type: T.Type, _ arguments: [String]) throws -> T {
        let result = try ChildProcess.python([script.path] + arguments)
        try #require(result.status == 0, "report_oracle.py \(arguments.first ?? ""): \(result.standardError)")
        return try JSONDecoder().decode(type, from: result.standardOutput)
    }
}
