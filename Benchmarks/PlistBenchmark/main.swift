import Foundation

// plist-benchmark: decode and encode throughput of this package's property-list
// readers and writers next to Foundation's, on the files Benchmarks/Scripts/gen_data.py
// writes. Prints markdown; Benchmarks/Scripts/run.sh turns it into docs/PERFORMANCE.md.
// Build it in release mode: `swift build -c release --product plist-benchmark`.

func log(_ message: String) {
    FileHandle.standardError.write(Data((message + "\n").utf8))
}

func runBenchmarks(_ options: BenchmarkOptions) throws {
    if let profileCase = options.profileCase {
        let input = try BenchmarkInput(name: "large", directory: options.dataDirectory, repetitions: options.largeRepetitions)
        return try ProfileRun.run(profileCase, input: input)
    }
    let inputs = [
        try BenchmarkInput(name: "large", directory: options.dataDirectory, repetitions: options.largeRepetitions),
        try BenchmarkInput(name: "small", directory: options.dataDirectory, repetitions: options.smallRepetitions),
    ]
    var rows: [Measurement] = []
    let report = { (measurement: Measurement) in
        log(Markdown.row(measurement))
        rows.append(measurement)
    }
    for input in inputs {
        try OurSuite.run(input, report: report)
        if !options.skipsFoundation {
            var foundationInput = input
            if input.name == "large", let repetitions = options.foundationLargeRepetitions {
                foundationInput.repetitions = repetitions
            }
            try FoundationSuite.runSerialization(foundationInput, report: report)
            try FoundationSuite.runCodable(foundationInput, report: report)
        }
    }
    let bombs = [try BombBenchmark.ours(options.dataDirectory, repetitions: options.largeRepetitions)]
        + (options.skipsFoundation ? [] : [try BombBenchmark.foundation(options.dataDirectory)])

    print("### Throughput\n")
    print(Markdown.tableHeader)
    rows.forEach { print(Markdown.row($0)) }
    print("\n### Shared-reference bomb\n")
    print(BombBenchmark.tableHeader)
    bombs.forEach { print(BombBenchmark.row($0)) }
    print("\n### Binary output size (large document)\n")
    print("| writer | bytes | vs plistlib |\n|---|---:|---:|")
    let plistlibSize = inputs[0].binary.count
    print("| python plistlib (input file) | \(Markdown.grouped(plistlibSize)) | 100.0 % |")
    for row in rows where row.input == "large" && row.operation == "encode" && row.format == "binary" {
        let ratio = Double(row.bytes) / Double(plistlibSize) * 100
        print("| \(row.implementation) | \(Markdown.grouped(row.bytes)) | \(Markdown.fixed(ratio, digits: 1)) % |")
    }
}

do {
    try runBenchmarks(BenchmarkOptions(arguments: Array(CommandLine.arguments.dropFirst())))
} catch {
    log("plist-benchmark: \(error)")
    exit(1)
}
