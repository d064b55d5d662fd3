extension RandomAccessCollection {
    /// The first index whose element `belongsInSecondPartition` accepts, in a collection where
    /// every such element comes after every other (a sorted array: "the first not before x");
    /// `endIndex` when there is none. A binary search.
    func partitioningIndex(where belongsInSecondPartition: (Element) throws -> Bool) rethrows -> Index {
        var low = startIndex
        var count = self.count
        while count > 0 {
            let half = count / 2
            let middle = index(low, offsetBy: half)
            if try belongsInSecondPartition(self[middle]) {
                count = half
            } else {
                low = index(after: middle)
                count -= half + 1
            }
        }
        return low
    }
}
