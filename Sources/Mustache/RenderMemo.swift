import Synchronization

/// What partials rendered with one object on top of the context stack, kept with the object
/// (one made with `keepsRenderings`, such as a review's card that hundreds of pages show):
/// where the same partial is included again with it, the renderer writes those bytes again
/// instead of rendering them, when everything the partial looked up outside the object is
/// still the same.
///
/// An entry holds the bytes without the indentation the partial was included at, and where
/// each indented line starts, so that one entry serves every indentation. An object keeps at
/// most ``capacity`` entries; the first stays, and the others are dropped when an entry of
/// another template library (after a theme edit in `serve`) is stored.
final class RenderMemo: @unchecked Sendable {
    static let capacity = 4
    /// The first entry stored, retained here once, as its address (0: none yet): set once and
    /// then read on every include, without a lock or a reference count, which two cores
    /// reading the same card would contend for.
    private let first = Atomic<UInt>(0)
    private let others = Mutex<[MemoEntry]>([])

    deinit {
        if let entry = Self.entry(first.load(ordering: .acquiring)) { entry.release() }
    }

    private static func entry(_ address: UInt) -> Unmanaged<MemoEntry>? {
        UnsafeRawPointer(bitPattern: address).map { Unmanaged.fromOpaque($0) }
    }

    /// Hands `body` the entry made under these conditions (see ``MemoKey``), if there is one.
    func withEntry<Result>(
        library: TemplateLibrary?, program: Program, startsAtLineStart: Bool, indented: Bool,
        _ body: (MemoEntry) -> Result
    ) -> Result? {
        func matches(_ entry: MemoEntry) -> Bool {
            entry.key.matches(
                library: library, program: program, startsAtLineStart: startsAtLineStart, indented: indented)
        }
        guard let first = Self.entry(first.load(ordering: .acquiring)) else { return nil }
        if first._withUnsafeGuaranteedRef(matches) { return first._withUnsafeGuaranteedRef(body) }
        guard let other = others.withLock({ list in list.first(where: matches) }) else { return nil }
        return body(other)
    }

    /// Reads what replaying the first entry reads first (the entry, and the start of its
    /// bytes, line breaks and escapes), returning a number made of them so that the reads are
    /// not left out. A list of cards is warmed before its first card is written: the cards'
    /// memory is read side by side, where each card's replay would wait for its own in turn
    /// (a card met on one page among thousands is rarely in the processor's cache).
    func warm() -> Int {
        guard let first = Self.entry(first.load(ordering: .acquiring)) else { return 0 }
        return first._withUnsafeGuaranteedRef { entry in
            Int(entry.bytes.first ?? 0) &+ entry.breaks.count &+ entry.escapes.count
        }
    }

    func store(_ entry: MemoEntry) {
        let address = UInt(bitPattern: Unmanaged.passRetained(entry).toOpaque())
        let (stored, found) = first.compareExchange(expected: 0, desired: address, ordering: .acquiringAndReleasing)
        if stored { return }
        Unmanaged<MemoEntry>.fromOpaque(UnsafeRawPointer(bitPattern: address)!).release()
        guard let first = Self.entry(found), !first._withUnsafeGuaranteedRef({ $0.key.matches(entry.key) }) else {
            return
        }
        others.withLock { list in
            list.removeAll { $0.key.library !== entry.key.library }
            guard list.count < Self.capacity - 1, !list.contains(where: { $0.key.matches(entry.key) }) else { return }
            list.append(entry)
        }
    }
}

/// What a partial's bytes depend on, besides the object and the lookups that left it: the
/// template (in its library, which resolves the partials it includes), whether it starts at
/// the start of a line, and whether it is included with indentation at all (which decides
/// how text is written; how much indentation does not).
struct MemoKey: Sendable {
    let library: TemplateLibrary?
    let program: Program
    let startsAtLineStart: Bool
    let indented: Bool

    func matches(_ other: MemoKey) -> Bool {
        matches(
            library: other.library, program: other.program, startsAtLineStart: other.startsAtLineStart,
            indented: other.indented)
    }

    func matches(library: TemplateLibrary?, program: Program, startsAtLineStart: Bool, indented: Bool) -> Bool {
        self.library === library && self.program === program && self.startsAtLineStart == startsAtLineStart
            && self.indented == indented
    }
}

/// A name a partial looked up outside its object, and what it found there.
///
/// An object found is held weakly and matched by identity: a record must not keep alive
/// what it was rendered in (a page holding the card would then hold itself through the
/// card's record). A list found makes the rendering one that is not kept.
struct MemoEscape: Sendable {
    enum Found: Sendable {
        case nothing
        case scalar(Value)
        case object(WeakObject)
    }

    struct WeakObject: Sendable {
        weak var storage: ObjectStorage?
    }

    let parts: [Name.Key]
    let found: Found

    /// What to note for `value`; nil for a list.
    static func found(_ value: Value?) -> Found? {
        switch value {
        case nil: .nothing
        case .object(let members)?: .object(WeakObject(storage: members.storage))
        case .array?: nil
        case let scalar?: .scalar(scalar)
        }
    }

    /// Whether a lookup that finds `value` now finds what it found then.
    func matches(_ value: Value?) -> Bool {
        switch (found, value) {
        case (.nothing, nil): true
        case (.scalar(let then), let now?): then == now
        case (.object(let then), .object(let now)?): then.storage === now.storage
        default: false
        }
    }
}

/// One partial's rendering with an object, and what reproducing it takes.
final class MemoEntry: Sendable {
    let key: MemoKey
    /// The bytes, without the indentation of the include.
    let bytes: [UInt8]
    /// Offsets in `bytes` where the include's indentation was written.
    let breaks: [Int32]
    let endsAtLineStart: Bool
    /// What the rendering counted against the limits: steps, and the deepest nesting and
    /// partial levels it opened beyond those it started at.
    let steps: Int
    let depth: Int
    let sites: Int
    let escapes: [MemoEscape]

    init(
        key: MemoKey, bytes: [UInt8], breaks: [Int32], endsAtLineStart: Bool, steps: Int, depth: Int, sites: Int,
        escapes: [MemoEscape]
    ) {
        self.key = key
        self.bytes = bytes
        self.breaks = breaks
        self.endsAtLineStart = endsAtLineStart
        self.steps = steps
        self.depth = depth
        self.sites = sites
        self.escapes = escapes
    }
}

/// A partial being rendered with an object that keeps renderings: what the entry will hold.
final class MemoRecording {
    let object: ObjectIdentifier
    /// The stack frame of the object: lookups that reach below it are escapes.
    let floor: Int
    /// Where the partial's bytes start in the output.
    let start: Int
    /// The indentation the partial was included at, and the number of indentation resets
    /// (non-standalone partials) open then: indentation written under more resets does not
    /// hold it.
    let baseLength: Int
    let resets: Int
    var breaks: [Int32] = []
    var escapes: [MemoEscape] = []
    /// False once a lookup outside found a list (see ``MemoEscape``).
    var keepable = true

    init(object: ObjectIdentifier, floor: Int, start: Int, baseLength: Int, resets: Int) {
        self.object = object
        self.floor = floor
        self.start = start
        self.baseLength = baseLength
        self.resets = resets
    }
}
