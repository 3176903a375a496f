import ArgumentParser
import Foundation
import OrderedCollections
import PropertyList

extension PlistCommand {
    /// Checks the arguments as a whole and resolves them; every problem is a
    /// `ValidationError`, so the process exits with status 64.
    func invocation() throws -> PlistInvocation {
        var paths = files
        let verb = try resolveVerb(paths: &paths)
        guard !paths.isEmpty else { throw ValidationError("No files specified.") }
        try checkOutputOptions(for: verb, fileCount: paths.count)
        return PlistInvocation(
            verb: verb, paths: paths, silent: output.silent, outputPath: output.output,
            outputExtension: output.outputExtension, readable: output.readable,
            terminatingNewline: !output.noNewline)
    }

    private func resolveVerb(paths: inout [String]) throws -> PlistInvocation.Verb {
        let given: [(name: String, isGiven: Bool)] = [
            ("-lint", command.lint), ("-p", command.print), ("-convert", command.convert != nil),
            ("-insert", command.insert != nil), ("-replace", command.replace != nil),
            ("-remove", command.remove != nil), ("-extract", command.extract != nil),
            ("-type", command.type != nil), ("-create", command.create != nil),
        ]
        let names = given.filter(\.isGiven).map(\.name)
        guard names.count <= 1 else {
            throw ValidationError("Give only one command option; found \(names.joined(separator: ", ")).")
        }
        let verbName = names.first ?? "-lint"
        let valueNames = value.givenValueOptions
        if verbName != "-insert" && verbName != "-replace", let first = valueNames.first {
            throw ValidationError("\(first) is only used with -insert and -replace.")
        }
        if value.append && verbName != "-insert" {
            throw ValidationError("-append is only used with -insert.")
        }
        if value.expect != nil && verbName != "-extract" && verbName != "-type" {
            throw ValidationError("-expect is only used with -extract and -type.")
        }

        if let format = command.convert { return .convert(format) }
        if let format = command.create { return .create(format) }
        if let keyPath = command.insert {
            let newValue = try value.parsedValue(for: verbName)
            return .edit(PlistKeyPath(parsing: keyPath), value.append ? .append(newValue) : .insert(newValue))
        }
        if let keyPath = command.replace {
            return .edit(PlistKeyPath(parsing: keyPath), .replace(try value.parsedValue(for: verbName)))
        }
        if let keyPath = command.remove { return .edit(PlistKeyPath(parsing: keyPath), .remove) }
        if let keyPath = command.extract {
            // plutil's grammar is `-extract keypath format file…`: the format is
            // the first argument after the key path.
            guard !paths.isEmpty else { throw ValidationError("-extract needs a key path and a format.") }
            let name = paths.removeFirst()
            guard let format = PlistExtractFormat(argument: name) else {
                throw ValidationError(
                    "Unknown format '\(name)' for -extract; use one of \(PlistExtractFormat.allNames.joined(separator: ", ")).")
            }
            return .extract(PlistKeyPath(parsing: keyPath), format, expect: value.expect)
        }
        if let keyPath = command.type { return .type(PlistKeyPath(parsing: keyPath), expect: value.expect) }
        return command.print ? .print : .lint
    }

    private func checkOutputOptions(for verb: PlistInvocation.Verb, fileCount: Int) throws {
        switch verb {
        case .lint, .print, .create:
            let name = switch verb {
            case .lint: "-lint"
            case .print: "-p"
            default: "-create"
            }
            if output.output != nil { throw ValidationError("-o is not used with \(name).") }
            if output.outputExtension != nil { throw ValidationError("-e is not used with \(name).") }
        default:
            if output.output != nil && output.outputExtension != nil {
                throw ValidationError("Give -o or -e, not both.")
            }
            // plutil lets each file overwrite the last; refusing is kinder.
            if let path = output.output, path != "-", fileCount > 1 {
                throw ValidationError("-o \(path) takes one file; use -e, or -o - for standard output.")
            }
        }
        if let outputExtension = output.outputExtension, outputExtension.isEmpty || outputExtension.contains("/") {
            throw ValidationError("-e needs an extension without '/'.")
        }
    }
}

extension PlistValueOptions {
    /// The type options given, by name.
    var givenValueOptions: [String] {
        let given: [(String, Bool)] = [
            ("-bool", bool != nil), ("-integer", integer != nil), ("-float", float != nil),
            ("-string", string != nil), ("-date", date != nil), ("-data", data != nil),
            ("-xml", xml != nil), ("-json", json != nil), ("-array", array), ("-dictionary", dictionary),
        ]
        return given.filter(\.1).map(\.0)
    }

    /// The value the one type option gives.
    func parsedValue(for verbName: String) throws -> PropertyListValue {
        let names = givenValueOptions
        guard names.count == 1 else {
            if names.isEmpty {
                throw ValidationError("\(verbName) needs a value: -bool, -integer, -float, -string, -date, -data, -xml, -json, -array or -dictionary.")
            }
            throw ValidationError("Give only one value option; found \(names.joined(separator: ", ")).")
        }
        if let bool { return .bool(try Self.parseBool(bool)) }
        if let integer { return .integer(try Self.parseInteger(integer)) }
        if let float {
            guard let real = Double(float) else { throw ValidationError("-float needs a number, not '\(float)'.") }
            return .real(real)
        }
        if let string { return .string(string) }
        if let date {
            guard let parsed = DateText.parseISO8601(date) else {
                throw ValidationError("-date needs a date like 2024-01-31T13:45:00Z, not '\(date)'.")
            }
            return .date(parsed)
        }
        if let data {
            // Line breaks and spaces are allowed, as in wrapped Base64; other
            // stray characters are errors, not silently dropped.
            guard let bytes = Data(base64Encoded: String(data.filter { !$0.isWhitespace })) else {
                throw ValidationError("-data needs Base64, which '\(data)' is not.")
            }
            return .data(bytes)
        }
        if let xml {
            do { return try PlistRunner.decode(Data(xml.utf8)).value } catch {
                throw ValidationError("-xml: \(error)")
            }
        }
        if let json {
            do { return try JSONPropertyListReader().read(Data(json.utf8)) } catch {
                throw ValidationError("-json: \(error)")
            }
        }
        return array ? .array([]) : .dictionary([:])
    }

    private static func parseBool(_ text: String) throws -> Bool {
        switch text.lowercased() {
        case "true", "yes", "1": return true
        case "false", "no", "0": return false
        default: throw ValidationError("-bool needs true, yes, 1, false, no or 0, not '\(text)'.")
        }
    }

    private static func parseInteger(_ text: String) throws -> PropertyListInteger {
        if let signed = Int64(text) { return PropertyListInteger(signed) }
        if let unsigned = UInt64(text) { return PropertyListInteger(unsigned) }
        throw ValidationError("-integer needs a whole number from -2^63 to 2^64-1, not '\(text)'.")
    }
}
