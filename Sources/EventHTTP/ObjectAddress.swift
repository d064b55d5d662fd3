/// The address of a libevent object (a request, a connection, a bufferevent): Sendable, so
/// state behind a Mutex can hold it; made a pointer again only on the loop thread.
struct ObjectAddress: Hashable, Sendable {
    private let bits: UInt

    init(_ pointer: OpaquePointer) {
        bits = UInt(bitPattern: pointer)
    }

    var pointer: OpaquePointer { OpaquePointer(bitPattern: bits)! }
}
