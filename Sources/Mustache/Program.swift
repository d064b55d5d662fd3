import Synchronization

/// A compiled template: a flat list of operations over shared tables.
///
/// Operations hold only numbers, so walking them costs no reference counting; a
/// section, block or parent is followed by its body, whose length it records. The
/// tables that rendering reads on every operation live in buffers this object owns
/// and never changes after `init`, so reading them copies and retains nothing. The one
/// thing renders change is ``outputSizeHint``, a relaxed atomic that only sizes buffers.
final class Program: @unchecked Sendable {
    let source: TemplateSource
    /// The size of the largest output a render of this program has made so far: a new
    /// render's buffer starts that large, instead of growing (and copying) to it again.
    let outputSizeHint = Atomic<Int>(0)
    let ops: UnsafeBufferPointer<Op>
    /// The source offset of each operation's tag; read only to locate an error.
    let offsets: [Int32]
    /// The bytes of every text operation, one after another.
    let text: UnsafeBufferPointer<UInt8>
    let segments: UnsafeBufferPointer<Segment>
    /// Offsets into `text` just after each newline, segment by segment.
    let lineBreaks: UnsafeBufferPointer<Int32>
    /// The parts of every name; a name is a range of them.
    let keys: UnsafeBufferPointer<Name.Key>
    /// The partial tags, read in place while rendering (copying one out of an array retained
    /// its name and indentation, which every render on every core shares).
    let partials: UnsafeBufferPointer<PartialSite>
    let parents: [ParentSite]
    let blocks: [BlockSite]

    init(source: TemplateSource, tables: ProgramTables, ops: [Op], offsets: [Int32]) {
        self.source = source
        self.ops = Self.copy(ops)
        self.offsets = offsets
        self.text = Self.copy(tables.text)
        self.segments = Self.copy(tables.segments)
        self.lineBreaks = Self.copy(tables.lineBreaks)
        self.keys = Self.copy(tables.keys)
        self.partials = Self.copy(tables.partials)
        self.parents = tables.parents
        self.blocks = tables.blocks
    }

    deinit {
        ops.deallocate()
        text.deallocate()
        segments.deallocate()
        lineBreaks.deallocate()
        _ = UnsafeMutableBufferPointer(mutating: keys).deinitialize()
        keys.deallocate()
        _ = UnsafeMutableBufferPointer(mutating: partials).deinitialize()
        partials.deallocate()
    }

    /// Where the tag of the operation at `index` is in the source.
    func location(ofOp index: Int) -> SourceLocation {
        source.location(at: Int(offsets[index]))
    }

    private static func copy<Element>(_ array: [Element]) -> UnsafeBufferPointer<Element> {
        let buffer = UnsafeMutableBufferPointer<Element>.allocate(capacity: max(array.count, 1))
        _ = buffer.initialize(from: array)
        return UnsafeBufferPointer(rebasing: buffer[0..<array.count])
    }
}

/// The tables a parser fills while it emits operations.
struct ProgramTables {
    var text: [UInt8] = []
    var segments: [Segment] = []
    var lineBreaks: [Int32] = []
    var keys: [Name.Key] = []
    var partials: [PartialSite] = []
    var parents: [ParentSite] = []
    var blocks: [BlockSite] = []
}

/// One step of a compiled template; indexes point into the ``Program`` tables.
enum Op: Sendable {
    case text(segment: Int32)
    case variable(name: NameRef, escaped: Bool)
    /// `standalone`: the tag had its line to itself, so it does not start an output line.
    case section(name: NameRef, inverted: Bool, standalone: Bool, bodyLength: Int32)
    case partial(site: Int32)
    /// Followed by the bodies of the blocks it passes, `bodyLength` operations in all.
    case parent(site: Int32, bodyLength: Int32)
    /// Followed by its default content.
    case block(site: Int32, bodyLength: Int32)
}

/// A run of literal text: `text[start..<end]`, with its newlines at `lineBreaks[firstBreak..<endBreak]`.
struct Segment: Sendable {
    var start: Int32
    var end: Int32
    var firstBreak: Int32
    var endBreak: Int32
    var endsWithNewline: Bool
}

/// A name in a program's key table: `keys[start..<start + count]`; no parts is `.`.
struct NameRef: Sendable {
    let start: Int32
    let count: Int32
}

/// A dotted name such as `review.title`; no parts means the implicit iterator `.`.
struct Name: Sendable {
    let parts: [Key]

    init(_ content: String) {
        parts =
            content == "."
            ? []
            : content.split(separator: ".", omittingEmptySubsequences: false).map {
                Key(String($0))
            }
    }

    /// One part of a name, with its hash computed once at compile time.
    struct Key: Sendable {
        let string: String
        let hash: Int

        init(_ string: String) {
            self.string = string
            self.hash = ObjectStorage.hash(string)
        }
    }
}

/// The name in a partial or parent tag: written out, or looked up in the data (`{{>*name}}`).
enum PartialName: Sendable {
    case fixed(String)
    case dynamic(Name)

    init(_ content: String) {
        if content.hasPrefix("*") {
            let rest = content.dropFirst().drop(while: { $0 == " " || $0 == "\t" })
            self = .dynamic(Name(String(rest)))
        } else {
            self = .fixed(content)
        }
    }
}

/// A `{{>partial}}` tag.
struct PartialSite: Sendable {
    let name: PartialName
    let indentation: [UInt8]
    let standalone: Bool
    let offset: Int
}

/// A `{{<parent}}…{{/parent}}` pair: the blocks it passes are relative operation ranges
/// after the parent operation.
struct ParentSite: Sendable {
    let name: PartialName
    let overrides: [String: Range<Int32>]
    let indentation: [UInt8]
    let standalone: Bool
    /// The blanks before a parent tag that has them but does not stand alone, written first.
    let leadingText: Int32?
    let offset: Int
}

/// A `{{$block}}` where it expands; `indentation` is added to its content's lines.
struct BlockSite: Sendable {
    let name: String
    let indentation: [UInt8]
    let standalone: Bool
}

/// The text of a template, kept to turn byte offsets into line and column on error.
final class TemplateSource: Sendable {
    let name: String
    let path: String
    let text: String

    init(name: String, path: String, text: String) {
        self.name = name
        self.path = path
        self.text = text
    }

    func location(at offset: Int) -> SourceLocation {
        SourceLocation(path: path, source: text, offset: offset)
    }
}
