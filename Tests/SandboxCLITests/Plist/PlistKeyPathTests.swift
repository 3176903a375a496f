import Testing
@testable import SandboxCLI
import PropertyList

@Suite struct PlistKeyPathTests {
    @Test func splitsOnUnescapedDots() {
        #expect(PlistKeyPath(parsing: "a.b.0").components == ["a", "b", "0"])
        #expect(PlistKeyPath(parsing: #"com\.example\.app.Enabled"#).components == ["com.example.app", "Enabled"])
        #expect(PlistKeyPath(parsing: #"back\\.slash"#).components == [#"back\"#, "slash"])
        #expect(PlistKeyPath(parsing: #"keep\n\"#).components == [#"keep\n\"#])
        #expect(PlistKeyPath(parsing: "").components == [""])
        #expect(PlistKeyPath(parsing: "a..b").components == ["a", "", "b"])
    }

    @Test func escapesBackWhenPrinted() {
        let path = PlistKeyPath(components: ["com.example", #"a\b"#, "0"])
        #expect(path.description == #"com\.example.a\\b.0"#)
        #expect(PlistKeyPath(parsing: path.description) == path)
    }

    @Test func onlyPlainDigitsIndexArrays() {
        #expect(PlistKeyPath.index("0") == 0)
        #expect(PlistKeyPath.index("12") == 12)
        for notIndex in ["", "-1", "+1", " 1", "1e2", "١", "99999999999999999999999"] {
            #expect(PlistKeyPath.index(notIndex) == nil)
        }
    }

    static let sample: PropertyListValue = ["a": ["b": [10, 20, ["c": "deep"]]], "s": "text", "": "empty key"]

    @Test func findsValues() throws {
        #expect(try Self.sample.value(at: PlistKeyPath(parsing: "a.b.1")) == 20)
        #expect(try Self.sample.value(at: PlistKeyPath(parsing: "a.b.2.c")) == "deep")
        #expect(try Self.sample.value(at: PlistKeyPath(parsing: "")) == "empty key")
        for missing in ["x", "a.b.3", "a.b.x", "s.0", "a.b.-1"] {
            #expect(throws: PlistCommandError.noValue(at: PlistKeyPath(parsing: missing))) {
                try Self.sample.value(at: PlistKeyPath(parsing: missing))
            }
        }
    }

    @Test func insertsIntoDictionariesAndArrays() throws {
        var value = try Self.sample.applying(.insert("new"), at: PlistKeyPath(parsing: "a.n"))
        #expect(value["a"]?["n"] == "new")
        value = try value.applying(.insert(5), at: PlistKeyPath(parsing: "a.b.0"))
        #expect(value["a"]?["b"] == [5, 10, 20, ["c": "deep"]])
        value = try value.applying(.insert(99), at: PlistKeyPath(parsing: "a.b.4"))
        #expect(value["a"]?["b"]?[4] == 99)
        #expect(throws: PlistCommandError.self) { try value.applying(.insert(1), at: PlistKeyPath(parsing: "a.b.9")) }
        #expect(throws: PlistCommandError("a value already exists at key path s")) {
            try value.applying(.insert(1), at: PlistKeyPath(parsing: "s"))
        }
    }

    @Test func keepsTheOrderOfExistingKeys() throws {
        let value: PropertyListValue = ["z": 1, "a": 2, "m": 3]
        let edited = try value.applying(.replace(20), at: PlistKeyPath(parsing: "a")).applying(.insert(4), at: PlistKeyPath(parsing: "b"))
        #expect(edited.dictionaryValue.map { Array($0.keys) } == ["z", "a", "m", "b"])
    }

    @Test func appendsToArrays() throws {
        let value: PropertyListValue = ["list": [1], "nested": [[1], "x"], "s": "text"]
        var edited = try value.applying(.append(2), at: PlistKeyPath(parsing: "list"))
        #expect(edited["list"] == [1, 2])
        edited = try edited.applying(.append(2), at: PlistKeyPath(parsing: "nested.0"))
        #expect(edited["nested"]?[0] == [1, 2])
        edited = try edited.applying(.append(7), at: PlistKeyPath(parsing: "fresh"))
        #expect(edited["fresh"] == 7)
        #expect(throws: PlistCommandError("cannot append: the value at key path s is a string, not an array")) {
            try value.applying(.append(1), at: PlistKeyPath(parsing: "s"))
        }
        #expect(throws: PlistCommandError.self) { try value.applying(.append(1), at: PlistKeyPath(parsing: "nested.1")) }
    }

    @Test func replacesAndRemoves() throws {
        var value = try Self.sample.applying(.replace("B"), at: PlistKeyPath(parsing: "a.b.1"))
        #expect(value["a"]?["b"]?[1] == "B")
        value = try value.applying(.replace("end"), at: PlistKeyPath(parsing: "a.b.3"))
        #expect(value["a"]?["b"]?[3] == "end")
        value = try value.applying(.remove, at: PlistKeyPath(parsing: "a.b.0"))
        #expect(value["a"]?["b"] == ["B", ["c": "deep"], "end"])
        value = try value.applying(.remove, at: PlistKeyPath(parsing: "s"))
        #expect(value["s"] == nil)
        #expect(throws: PlistCommandError.noValue(at: PlistKeyPath(parsing: "s"))) {
            try value.applying(.remove, at: PlistKeyPath(parsing: "s"))
        }
    }

    @Test func refusesToDescendIntoScalars() {
        #expect(throws: PlistCommandError("key path s.x: key path s is a string, not a dictionary or array")) {
            try Self.sample.applying(.insert(1), at: PlistKeyPath(parsing: "s.x"))
        }
        #expect(throws: PlistCommandError("key path a.x: 'x' is not an array index")) {
            try (["a": [1]] as PropertyListValue).applying(.insert(1), at: PlistKeyPath(parsing: "a.x"))
        }
        #expect(throws: PlistCommandError("key path x: the root is an integer, not a dictionary or array")) {
            try PropertyListValue.integer(1).applying(.insert(1), at: PlistKeyPath(parsing: "x"))
        }
    }
}
