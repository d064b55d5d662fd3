// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "sitegen",
    products: [
        .executable(name: "sitegen", targets: ["sitegen"]),
        .executable(name: "sitegen-bench", targets: ["sitegen-bench"]),
        .library(name: "Mustache", targets: ["Mustache"]),
        .library(name: "SiteGen", targets: ["SiteGen"]),
    ],
    targets: [
        // The template engine: no dependencies beyond the toolchain.
        .target(name: "Mustache"),
        // C libraries from Debian, each behind one adapter file.
        .systemLibrary(name: "CCmark", pkgConfig: "libcmark", providers: [.apt(["libcmark-dev"])]),
        .systemLibrary(name: "CYaml", pkgConfig: "yaml-0.1", providers: [.apt(["libyaml-dev"])]),
        .systemLibrary(name: "CEvent", pkgConfig: "libevent_pthreads", providers: [.apt(["libevent-dev"])]),
        .systemLibrary(name: "CZip", pkgConfig: "libzip", providers: [.apt(["libzip-dev"])]),
        .systemLibrary(name: "CCurl", pkgConfig: "libcurl", providers: [.apt(["libcurl4-openssl-dev"])]),
        .systemLibrary(name: "CVips", pkgConfig: "vips", providers: [.apt(["libvips-dev"])]),
        .systemLibrary(
            name: "CTCMalloc", pkgConfig: "libtcmalloc_minimal", providers: [.apt(["libgoogle-perftools-dev"])]),
        .systemLibrary(name: "CICU", pkgConfig: "icu-i18n", providers: [.apt(["libicu-dev"])]),
        // The YAML, Markdown and zip adapters: Swift values in and out, the C library kept inside one
        // file of each target (an `internal import`), so no libyaml or cmark type leaves it.
        .target(name: "YAML", dependencies: ["CYaml"]),
        .target(name: "CommonMark", dependencies: ["CCmark"]),
        .target(name: "Zip", dependencies: ["CZip"]),
        // The image adapter: bytes in, resized and encoded images out; libvips stays inside
        // `ImageProcessor.swift`.
        .target(name: "ImageProcessing", dependencies: ["CVips"]),
        // The memory allocator: linking it puts tcmalloc in place of glibc's malloc for the
        // whole process; `Allocator.swift` is the only file that sees its C API.
        .target(name: "Allocator", dependencies: ["CTCMalloc"]),
        // Collation (the order of titles in a language) from ICU: `Collator.swift` alone sees it.
        .target(name: "Collating", dependencies: ["CICU"]),
        // The HTTP server on libevent: the only target that sees CEvent; its API is Swift types only.
        .target(name: "EventHTTP", dependencies: ["CEvent"]),
        // The library: load -> present -> render -> write.
        .target(
            name: "SiteGen",
            dependencies: [
                "Mustache", "YAML", "CommonMark", "EventHTTP", "Zip", "ImageProcessing", "Allocator", "CCurl",
                "Collating",
            ],
            plugins: ["EmbedTheme"]),
        // Commands and argument parsing, a tested library; `sitegen` only calls it.
        .target(name: "SiteGenCLI", dependencies: ["Mustache", "SiteGen", "EventHTTP"]),
        .executableTarget(name: "sitegen", dependencies: ["SiteGenCLI"]),
        .executableTarget(
            name: "sitegen-bench", dependencies: ["Mustache", "SiteGen", "SiteGenCLI", "CommonMark", "ImageProcessing"]),
        // Builds the default theme (Templates/) into the binary.
        .executableTarget(name: "theme-embedder"),
        .plugin(name: "EmbedTheme", capability: .buildTool(), dependencies: ["theme-embedder"]),
        .testTarget(name: "MustacheTests", dependencies: ["Mustache"]),
        .testTarget(
            name: "SiteGenTests",
            dependencies: [
                "SiteGen", "Mustache", "YAML", "CommonMark", "EventHTTP", "Zip", "ImageProcessing", "Allocator",
            ]),
        .testTarget(
            name: "SiteGenCLITests", dependencies: ["SiteGenCLI", "SiteGen", "EventHTTP", "Zip", "ImageProcessing"]),
    ],
    swiftLanguageModes: [.v6]
)
