import Synchronization

// Implementation-only: a client of this target must not load CICU, whose ICU headers define
// the same C types (UErrorCode…) as the ICU inside Foundation (_FoundationICU), which Clang
// refuses as two definitions in one build of a module that imports both.
@_implementationOnly import CICU

/// A language's collation from ICU (Debian's libicu), as sort keys: bytes whose order, compared
/// byte by byte, is the collation's order of the texts. The only file that sees ICU; no ICU
/// type leaves it.
///
/// The collator compares numbers by value ("Part 2" before "Part 10"), ignores case and width
/// (ＡＢＣ, abc and ABC are one), keeps accents (é after e, before f), and treats canonically
/// equivalent texts (é precomposed or as e and a combining accent) as equal. Unlike
/// `String.compare(_:options:range:locale:)`, whose Core Foundation implementation compares
/// piece by piece, its order is total: "ﬁnal" and "final" are equal, and no three texts
/// compare in a circle.
public final class Collator: Sendable {
    /// The ICU collator, used under the lock (made once, never changed after `init`).
    private let collator: Mutex<Handle>

    private struct Handle: @unchecked Sendable {
        let pointer: OpaquePointer
    }

    /// The collation of `locale` (a BCP 47 tag or an ICU locale identifier: "sv", "zh-Hans"),
    /// or the root collation when ICU does not know it.
    public init(locale: String) {
        var status = U_ZERO_ERROR
        let identifier = String(locale.map { $0 == "-" ? "_" : $0 })
        var opened = sitegen_ucol_open(identifier, &status)
        if opened == nil || status.rawValue > U_ZERO_ERROR.rawValue {
            if let opened { sitegen_ucol_close(opened) }
            status = U_ZERO_ERROR
            opened = sitegen_ucol_open("", &status)
        }
        guard let pointer = opened, status.rawValue <= U_ZERO_ERROR.rawValue else {
            fatalError("ICU cannot open its root collation: \(status.rawValue)")
        }
        for (attribute, value) in [
            (UCOL_STRENGTH, UCOL_SECONDARY), (UCOL_NUMERIC_COLLATION, UCOL_ON), (UCOL_NORMALIZATION_MODE, UCOL_ON),
        ] {
            sitegen_ucol_setAttribute(pointer, attribute, value, &status)
        }
        collator = Mutex(Handle(pointer: pointer))
    }

    deinit {
        collator.withLock { sitegen_ucol_close($0.pointer) }
    }

    /// The primary weight of the first collation element of `text` that has one: what the
    /// collation sorts the text by first, the same for "Æon" and "Aardvark" in English (Æ
    /// sorts as AE) or for "Aa" and "Å" in Danish; nil when no character has one.
    public func firstPrimary(_ text: String) -> UInt64? {
        let primary = withCollator(text) { collator, text, count in
            var status = U_ZERO_ERROR
            let primary = sitegen_ucol_firstPrimary(collator, text, count, &status)
            return status.rawValue > U_ZERO_ERROR.rawValue ? 0 : primary
        }
        return primary == 0 ? nil : primary
    }

    /// The headings ICU gives an alphabetical index in `locale` (its index exemplar
    /// characters: A to Z in English, with Å Ä Ö in Swedish, ㄱ ㄴ ㄷ … in Korean), in the
    /// set's order; none when ICU has none for it.
    public static func indexCharacters(locale: String) -> [String] {
        var status = U_ZERO_ERROR
        let identifier = String(locale.map { $0 == "-" ? "_" : $0 })
        guard let set = sitegen_index_characters(identifier, &status) else { return [] }
        defer { sitegen_uset_close(set) }
        var characters: [String] = []
        for index in 0..<sitegen_uset_getItemCount(set) {
            var start: Int32 = 0
            var end: Int32 = 0
            var text = [UInt16](repeating: 0, count: 32)
            status = U_ZERO_ERROR
            let length = sitegen_uset_getItem(set, index, &start, &end, &text, Int32(text.count), &status)
            guard status.rawValue <= U_ZERO_ERROR.rawValue else { continue }
            if length > 0 {
                characters.append(String(decoding: text.prefix(Int(length)), as: UTF16.self))
            } else if start <= end {
                for value in start...end {
                    if let scalar = Unicode.Scalar(UInt32(value)) { characters.append(String(scalar)) }
                }
            }
        }
        return characters
    }

    /// The sort key of `text`.
    public func sortKey(_ text: String) -> [UInt8] {
        withCollator(text) { collator, text, count in
            var capacity = max(16, Int(count) * 4 + 12)
            while true {
                var key = [UInt8](repeating: 0, count: capacity)
                let length = key.withUnsafeMutableBufferPointer { bytes in
                    sitegen_ucol_getSortKey(collator, text, count, bytes.baseAddress, Int32(capacity))
                }
                if Int(length) <= capacity {
                    // The length counts the key's closing zero byte, which every key has.
                    key.removeLast(capacity - Int(length))
                    return key
                }
                capacity = Int(length)
            }
        }
    }

    /// Hands `body` the ICU collator (under its lock) and `text` in UTF-16 with its length in
    /// units (one unit more is there, never read, so that an empty text still has an address).
    private func withCollator<Result: Sendable>(
        _ text: String, _ body: (OpaquePointer, UnsafePointer<UInt16>, Int32) -> Result
    ) -> Result {
        let units = Array(text.utf16) + [0]
        return units.withUnsafeBufferPointer { utf16 in
            collator.withLock { handle in body(handle.pointer, utf16.baseAddress!, Int32(utf16.count - 1)) }
        }
    }
}
