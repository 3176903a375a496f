// swift-tools-version:6.1
import PackageDescription

// libFuzzer harnesses for the PropertyList readers, one executable per
// reader, and for the KeyedArchive unarchiver. A package of its own so the main package never carries sanitizer
// flags: `run.sh` builds it with `-sanitize=fuzzer,address -parse-as-library`,
// and SwiftPM applies those to PropertyList and swift-collections as well
// (coverage feedback from the library, not just the harness) while keeping
// swift-collections' own compiler settings.
//
// The dependency is named because a path package's identity is otherwise its
// directory name, which differs between the main checkout and worktrees.
let propertyList = Target.Dependency.product(name: "PropertyList", package: "Sandbox")
let keyedArchive = Target.Dependency.product(name: "KeyedArchive", package: "Sandbox")
let harnesses = ["FuzzBinary", "FuzzXML", "FuzzOpenStep", "FuzzJSON", "FuzzDetect"]

let package = Package(
    name: "PropertyListFuzz",
    dependencies: [
        .package(name: "Sandbox", path: ".."),
    ],
    targets: [
        .target(name: "FuzzSupport", dependencies: [propertyList]),
    ] + harnesses.map { name in
        .executableTarget(name: name, dependencies: ["FuzzSupport", propertyList])
    } + [
        .executableTarget(name: "FuzzKeyedArchive", dependencies: ["FuzzSupport", propertyList, keyedArchive]),
    ]
)
