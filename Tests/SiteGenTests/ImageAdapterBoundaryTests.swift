import Foundation
import Testing

/// "One C library, one adapter file" for libvips, as ``AdapterBoundaryTests`` holds it for
/// libyaml and cmark.
@Suite("libvips boundary")
struct ImageAdapterBoundaryTests {
    @Test("only ImageProcessing/ImageProcessor.swift imports CVips")
    func oneFileSeesLibvips() throws {
        let boundary = AdapterBoundaryTests()
        let importing = try boundary.swiftFiles().filter { path in
            let text = try String(
                contentsOf: AdapterBoundaryTests.sources.appendingPathComponent(path), encoding: .utf8)
            return text.split(separator: "\n").contains { $0.wholeMatch(of: /(?:\w+ )?import\s+CVips/) != nil }
        }
        #expect(importing == ["ImageProcessing/ImageProcessor.swift"])
    }

    @Test("no libvips or GLib name appears outside the adapter file")
    func noCNamesOutside() throws {
        for path in try AdapterBoundaryTests().swiftFiles() where path != "ImageProcessing/ImageProcessor.swift" {
            let text = try String(
                contentsOf: AdapterBoundaryTests.sources.appendingPathComponent(path), encoding: .utf8)
            #expect(
                text.firstMatch(of: /\b(vips|g_object|g_free|sitegen_vips)_?[a-z_]*\(|\bVips[A-Z][a-z]+\b/) == nil,
                "\(path)")
        }
    }
}
