#!/usr/bin/env python3
"""Independent readers of the storage audit's HTML report (Tests/StorageAuditReportTests).

Usage:
  report_oracle.py parse FILE         parse FILE with Python's HTML parser (html.parser) and its XML
                                      parser (xml.etree), and print one JSON object:
                                      {"html": summary, "xml": summary} where a summary is
                                      {"elements": {tag: count}, "code": [text of each <code>],
                                       "titles": [text of each <title>], "links": [href values],
                                       "sources": [src values], "event_attributes": [on… names]}
                                      or {"error": "..."} when that parser rejects the file.
  report_oracle.py pixels PNG COLOUR...
                                      read the screenshot PNG with Pillow and print
                                      {"width", "height", "dominant_share" (the most common colour's
                                       share of the pixels), "distinct" (colours), "colours":
                                       {"#rrggbb": pixels within 2 of it per channel}}
Exit status 2 if Pillow is missing (the tests must fail, not skip).
"""
import collections
import html.parser
import json
import sys
import xml.etree.ElementTree as ElementTree


def empty_summary():
    return {"elements": {}, "code": [], "titles": [], "links": [], "sources": [], "event_attributes": []}


class HTMLSummary(html.parser.HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.summary = empty_summary()
        self.capturing = []  # (tag, [text]) of open <code> and <title> elements

    def handle_starttag(self, tag, attrs):
        self.count(tag, attrs)
        if tag in ("code", "title"):
            self.capturing.append((tag, []))

    def handle_startendtag(self, tag, attrs):
        self.count(tag, attrs)

    def count(self, tag, attrs):
        elements = self.summary["elements"]
        elements[tag] = elements.get(tag, 0) + 1
        for name, value in attrs:
            record_attribute(self.summary, name, value)

    def handle_endtag(self, tag):
        if self.capturing and self.capturing[-1][0] == tag:
            name, parts = self.capturing.pop()
            self.summary["code" if name == "code" else "titles"].append("".join(parts))

    def handle_data(self, data):
        for _, parts in self.capturing:
            parts.append(data)


def record_attribute(summary, name, value):
    name = name.lower()
    if name == "href":
        summary["links"].append(value or "")
    if name == "src":
        summary["sources"].append(value or "")
    if name.startswith("on"):
        summary["event_attributes"].append(name)


def xml_summary(path):
    summary = empty_summary()
    for element in ElementTree.parse(path).iter():
        tag = element.tag.split("}")[-1].lower()
        summary["elements"][tag] = summary["elements"].get(tag, 0) + 1
        for name, value in element.attrib.items():
            record_attribute(summary, name.split("}")[-1], value)
        if tag == "code":
            summary["code"].append("".join(element.itertext()))
        if tag == "title":
            summary["titles"].append("".join(element.itertext()))
    return summary


def parse(path):
    result = {}
    try:
        parser = HTMLSummary()
        with open(path, encoding="utf-8") as file:
            parser.feed(file.read())
        parser.close()
        result["html"] = parser.summary
    except Exception as error:  # report, never crash: the test prints it
        result["html"] = {"error": repr(error)}
    try:
        result["xml"] = xml_summary(path)
    except Exception as error:
        result["xml"] = {"error": repr(error)}
    return result


def pixels(path, colours):
    try:
        from PIL import Image
    except ImportError as error:  # CI installs Tests/Oracles/requirements.txt
        print(f"missing oracle package: {error}", file=sys.stderr)
        sys.exit(2)
    image = Image.open(path).convert("RGB")
    width, height = image.size
    counts = collections.Counter(image.getdata())
    total = width * height
    wanted = {colour: tuple(int(colour[i:i + 2], 16) for i in (1, 3, 5)) for colour in colours}
    found = {colour: 0 for colour in colours}
    for rgb, count in counts.items():
        for colour, target in wanted.items():
            if all(abs(a - b) <= 2 for a, b in zip(rgb, target)):
                found[colour] += count
    return {
        "width": width,
        "height": height,
        "dominant_share": counts.most_common(1)[0][1] / total if total else 1.0,
        "distinct": len(counts),
        "colours": found,
    }


def main(arguments):
    if len(arguments) >= 2 and arguments[0] == "parse":
        print(json.dumps(parse(arguments[1]), sort_keys=True))
    elif len(arguments) >= 2 and arguments[0] == "pixels":
        print(json.dumps(pixels(arguments[1], arguments[2:]), sort_keys=True))
    else:
        print(__doc__, file=sys.stderr)
        return 64
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
