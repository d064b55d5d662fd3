// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "sitegen",
    products: [
        .executable(name: "sitegen", targets: ["sitegen"]),
        .executable(name: "sitegen-bench", targets: ["sitegen-bench"]),
        .library(name: "Mustache", targets: ["Mustache"]),
    ],
    targets: [
        .target(name: "Mustache"),
        .target(name: "SiteGenCLI", dependencies: ["Mustache"]),
        .executableTarget(name: "sitegen", dependencies: ["SiteGenCLI"]),
        .executableTarget(name: "sitegen-bench", dependencies: ["Mustache", "SiteGenCLI"]),
        .testTarget(name: "MustacheTests", dependencies: ["Mustache"]),
        .testTarget(name: "SiteGenCLITests", dependencies: ["SiteGenCLI"]),
    ],
    swiftLanguageModes: [.v6]
)
