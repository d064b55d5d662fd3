import Foundation
import Testing

@testable import SiteGen

/// A site's own templates are UTF-8 text, read as `sitegen template` reads them.
@Suite("Theme templates' text")
struct ThemeTextTests {
    func theme(_ bytes: [UInt8]) throws -> Result<Theme, any Error> {
        let folder = try ScratchFolder()
        try folder.write("site.yml", "title: T\nbase_url: https://example.org/\n")
        try folder.write("Templates/404.mustache", "")
        try Data(bytes).write(to: folder.url.appendingPathComponent("Templates/404.mustache"))
        return Result { try Theme.load(site: SiteFolder(root: folder.url, fileSystem: .disk)) }
    }

    @Test("a byte that is not UTF-8 is an error at its line and column, as sitegen template says; a BOM is skipped")
    func utf8() throws {
        let broken = try theme(Array("<p>\n  Gone\u{E9} ".utf8) + [0xFF] + Array(" away</p>".utf8))
        #expect(throws: BuildError.self) { try broken.get() }
        if case .failure(let error as BuildError) = broken {
            #expect(
                error.diagnostics.map(\.description) == [
                    "Templates/404.mustache:2:9: not valid UTF-8: byte 0xFF cannot appear here"
                ])
        }
        let marked = try theme([0xEF, 0xBB, 0xBF] + Array("<p>Lost</p>".utf8)).get()
        #expect(marked.templates["404"]?.text == "<p>Lost</p>")
    }

    @Test("assets are published as they are, a .mustache file too; a folder named like a template is a warning")
    func assetsAndFolders() throws {
        let folder = try ScratchFolder()
        try folder.write("site.yml", "title: T\nbase_url: https://example.org/\n")
        try folder.write("Templates/assets/client.mustache", "<li>{{name}}</li>{{#items}}\n")
        try folder.write("Templates/review.mustache/custom.mustache", "CUSTOM")
        var diagnostics: [Diagnostic] = []
        var warnings: [Diagnostic] = []
        let theme = Theme.load(SiteFolder(root: folder.url, fileSystem: .disk), &diagnostics, &warnings)
        #expect(diagnostics.isEmpty)
        #expect(theme.assets["assets/client.mustache"] == Data("<li>{{name}}</li>{{#items}}\n".utf8))
        #expect(theme.templates["assets/client"] == nil)
        #expect(theme.templates["review.mustache/custom"] == nil)
        #expect(theme.templates["review"] != nil, "the default review template")
        #expect(
            warnings.map(\.description) == [
                "Templates/review.mustache:1:1: warning: ignored: Templates/review.mustache is a folder, and a "
                    + "template is a file: the default theme's is used in its place, if it has one"
            ])
    }

    @Test("a folder of assets where the default theme has a file is an error at the site's file")
    func assetFolderOverFile() throws {
        let folder = try ScratchFolder()
        try folder.write("site.yml", "title: T\nbase_url: https://example.org/\n")
        try folder.write("Templates/assets/site.css/extra.css", "a{}")
        let error = #expect(throws: BuildError.self) {
            try Theme.load(site: SiteFolder(root: folder.url, fileSystem: .disk))
        }
        #expect(
            error?.diagnostics.map(\.description) == [
                "Templates/assets/site.css/extra.css:1:1: Templates/assets/site.css is a folder where the default "
                    + "theme has a file, published at /assets/site.css: rename the folder, or make it a file to "
                    + "replace the theme's"
            ])
    }
}
