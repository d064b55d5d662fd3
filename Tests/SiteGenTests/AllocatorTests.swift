import Allocator
import Foundation
import Testing

/// The binaries link tcmalloc in place of glibc's malloc (the build is about a tenth faster
/// with it), and the preview server gives free memory back after each rebuild.
@Suite("Memory allocator")
struct AllocatorTests {
    /// The process's resident size in bytes, from `/proc/self/statm`.
    static func residentBytes() throws -> Int {
        let text = try String(contentsOfFile: "/proc/self/statm", encoding: .utf8)
        let pages = try #require(Int(text.split(separator: " ")[1]))
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }

    @Test("memory freed stays with the allocator until released, then goes back to the system")
    func releaseGivesMemoryBack() throws {
        // glibc would map a block this large on its own and unmap it on free, so the resident
        // size would not drop at the release: the test fails unless tcmalloc is the allocator.
        let size = 256 << 20
        let block = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 16)
        block.initializeMemory(as: UInt8.self, repeating: 1, count: size)
        let touched = try Self.residentBytes()
        block.deallocate()
        let freed = try Self.residentBytes()
        Allocator.releaseFreeMemory()
        let released = try Self.residentBytes()
        #expect(freed > touched - size / 2, "the freed block stays mapped until released")
        #expect(released < freed - size / 2, "releasing gives the block back: \(freed) -> \(released) bytes")
    }
}
