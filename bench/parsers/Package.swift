// swift-tools-version:6.0
import PackageDescription

/// SSE + decode throughput: Agent's byte-level parser and decoder against a parser written
/// the way the seed tutorial reads the stream (character by character, JSONDecoder per line).
let package = Package(
    name: "ParserBench",
    dependencies: [.package(name: "Agent", path: "../..")],
    targets: [
        .executableTarget(name: "sse-bench", dependencies: [.product(name: "AgentCore", package: "Agent")]),
    ],
    swiftLanguageModes: [.v6]
)
