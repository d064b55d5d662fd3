extension Range where Bound == Int {
    /// The range cut into `pieces` runs in order, of sizes that differ by one at most (some
    /// empty when there are more pieces than elements), for work spread over the cores.
    func cut(into pieces: Int) -> [Range<Int>] {
        let pieces = Swift.max(1, pieces)
        return (0..<pieces).map { lowerBound + count * $0 / pieces..<lowerBound + count * ($0 + 1) / pieces }
    }
}
