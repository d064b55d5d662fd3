import Mustache

/// A link in a review, page or section intro to another file of the site by its path, such
/// as `[Parasite](../movies/parasite.md)`: published, it leads to that file's URL.
public struct SourceLink: Sendable, Hashable {
    /// The destination as written: `../movies/parasite.md#cast`.
    public let written: String
    /// The file it names, relative to the site folder (`content/movies/parasite.md`); nil when
    /// the path leads out of the site folder.
    public let target: String?
    /// Where the link is written.
    public let location: SourceLocation

    public init(written: String, target: String?, location: SourceLocation) {
        self.written = written
        self.target = target
        self.location = location
    }
}
