extension Dictionary where Key == String, Value: Sendable {
    /// One line for each entry, in the order of the keys, made on every core (sitegen's
    /// records of its files: the output record, the build manifest). The keys are sorted here
    /// unless `presorted` is exactly them, sorted and each once (which the caller checks, as
    /// only it knows how they were made); `line` is then told each key's place in it.
    func linesInKeyOrder(
        presorted: [String]?, _ line: @Sendable (_ place: Int?, _ key: String, _ value: Value) -> String
    ) -> [String] {
        if let presorted, presorted.count == count {
            let found = Array(presorted.indices).parallelMap { place in
                self[presorted[place]].map { line(place, presorted[place], $0) }
            }
            if found.allSatisfy({ $0 != nil }) { return found.map { $0! } }
        }
        return keys.sorted().parallelMap { line(nil, $0, self[$0]!) }
    }
}
