/// Bounds on one render, so that a hostile template or data set ends in a located error
/// instead of overflowing the stack, running forever or filling memory.
///
/// The standard limits are far beyond any real theme: the benchmark's review page (a
/// layout, a partial, four loops) nests 4 deep and renders in about 400 steps.
public struct RenderLimits: Sendable, Equatable {
    /// Partials and parents inside one another (a partial that includes itself stops here).
    public var partialDepth: Int
    /// Sections, inverted sections, blocks, partials and parents inside one another.
    public var nesting: Int
    /// Roughly the operations one render may run: each time a section, block, partial or
    /// parent is entered (once per list item), its operations are counted.
    public var steps: Int
    /// The bytes one render may write.
    public var outputBytes: Int

    public init(partialDepth: Int, nesting: Int, steps: Int, outputBytes: Int) {
        self.partialDepth = partialDepth
        self.nesting = nesting
        self.steps = steps
        self.outputBytes = outputBytes
    }

    /// 200 partials deep, 1,000 levels of nesting, 100 million steps, 256 MiB of output.
    public static let standard = RenderLimits(
        partialDepth: 200, nesting: 1000, steps: 100_000_000, outputBytes: 256 << 20)
}
