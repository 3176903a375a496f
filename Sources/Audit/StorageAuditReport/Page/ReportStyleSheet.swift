import StorageAudit

/// The page's only style sheet, inline. It holds no `<` and no `&`, so the
/// `<style>` element is the same text to an HTML and to an XML parser.
enum ReportStyleSheet {
    static var css: String {
        let categories = StorageCategory.allCases.map { category in
            ".c-\(category.rawValue){background:\(category.style.htmlColour)}"
        }
        return (rules + categories).joined(separator: "\n")
    }

    private static let rules = [
        "body{margin:0;background:#f2f2f7;color:#1c1c1e;font:14px/1.4 -apple-system,'Helvetica Neue',Arial,'DejaVu Sans',sans-serif}",
        ".page{max-width:1080px;margin:0 auto;padding:24px}",
        "h1{font-size:26px;margin:0 0 4px}",
        "h2{font-size:18px;margin:0 0 12px}",
        ".totals{color:#3c3c43;margin:0 0 16px}",
        ".panel{background:#ffffff;border-radius:12px;padding:16px 20px;margin:0 0 16px}",
        ".device-bar,.bar{display:flex;height:22px;border-radius:5px;overflow:hidden;background:#e5e5ea}",
        ".bar{height:14px;border-radius:4px;background:transparent}",
        ".seg{display:block;height:100%}",
        ".legend{display:flex;flex-wrap:wrap;gap:6px 16px;margin:10px 0 4px;color:#3c3c43;font-size:13px}",
        ".swatch{display:inline-block;width:10px;height:10px;border-radius:50%;margin-right:5px}",
        ".app-row{display:flex;align-items:center;gap:12px;padding:7px 0;border-top:1px solid #e5e5ea}",
        ".app-name{flex:0 0 300px;overflow:hidden;text-overflow:ellipsis;white-space:nowrap;font-weight:600}",
        ".app-track{flex:1 1 auto}",
        ".app-size{flex:0 0 90px;text-align:right;color:#3c3c43}",
        ".treemap{display:block;width:100%;height:auto;font-family:'Helvetica Neue',Arial,'DejaVu Sans',sans-serif}",
        "table{width:100%;border-collapse:collapse;font-size:13px}",
        "th{text-align:left;color:#3c3c43;font-weight:600;border-bottom:1px solid #c6c6c8;padding:5px 6px}",
        "td{border-bottom:1px solid #e5e5ea;padding:5px 6px;vertical-align:top}",
        "td.num,th.num{text-align:right;white-space:nowrap}",
        "td.path{min-width:240px}",
        "code{font:12px/1.3 'DejaVu Sans Mono',Menlo,monospace;word-break:break-all}",
        ".rule{font-weight:700;color:#0a84ff;text-decoration:none}",
        ".rules{margin:12px 0 0;padding:0;list-style:none;color:#3c3c43;font-size:13px}",
        ".none{color:#3c3c43}",
        ".meter{display:inline-block;vertical-align:middle;width:120px;height:8px;border-radius:4px;background:#e5e5ea;overflow:hidden;margin-right:8px}",
        ".meter span{display:block;height:100%;background:#0a84ff}",
        ".over{color:#ff3b30;font-weight:600}",
        "tfoot td{font-weight:600;border-bottom:none}",
    ]
}
