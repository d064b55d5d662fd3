/// A link or image of a Markdown text, where it starts and where it leads.
public struct MarkdownLink: Sendable, Equatable {
    /// The destination as cmark read it: `/books/piranesi/`, `../movies/parasite.md#cast`.
    public let destination: String
    /// An image (`![alt](src)`) rather than a link.
    public let isImage: Bool
    /// The line of the text on which it starts, from 1.
    public let line: Int
    /// The column (in Unicode scalars, from 1) of its opening `[` or `!`.
    public let column: Int

    public init(destination: String, isImage: Bool, line: Int, column: Int) {
        self.destination = destination
        self.isImage = isImage
        self.line = line
        self.column = column
    }
}
