internal import CTCMalloc

/// The process's memory allocator: tcmalloc (gperftools), which every binary that links this
/// module uses in place of glibc's `malloc`.
///
/// A build allocates and frees millions of small strings and arrays on both cores at once;
/// tcmalloc's per-thread caches serve them without glibc's arena locks and heap consolidation,
/// which made a 10,000-review build about a tenth faster (README, "Site builds"). Linking is
/// what replaces the allocator: this type only adds what a long-running process needs.
public enum Allocator {
    /// Gives memory that is free in the allocator's page heap back to the system, so that a
    /// server's resident size drops after a large rebuild instead of staying at its peak.
    public static func releaseFreeMemory() {
        MallocExtension_ReleaseFreeMemory()
    }
}
