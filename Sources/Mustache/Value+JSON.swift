/// Reading JSON files into values, strictly and with located errors.
extension Value {
    /// The JSON value (RFC 8259) in a file's bytes; `path` is what errors show.
    ///
    /// UTF-8 (a byte order mark is skipped), or UTF-16 or UTF-32 recognised as RFC 4627
    /// describes. Stricter than Foundation's reader: a trailing comma, a key repeated in
    /// one object, a `\u` escape of half a surrogate pair, a number beyond `Double` and
    /// arrays and objects nested more than 512 deep are errors at
    /// their line and column. Numbers that are whole and fit `Int` become `.int`.
    public init(json bytes: [UInt8], path: String) throws(JSONError) {
        var reader = try JSONReader(bytes, path: path)
        self = try reader.read()
    }
}
