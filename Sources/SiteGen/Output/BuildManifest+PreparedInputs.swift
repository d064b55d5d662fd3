import Foundation

extension BuildManifest {
    /// The inputs of a build's manifest, made from the scan's stamps on another thread while
    /// the site builds: at 100,000 reviews, making the table of 200,000 inputs and their sorted
    /// lines at the end of the build took half a second on one core, the other idle.
    struct PreparedInputs: Sendable {
        /// Every input, none with a fingerprint yet.
        let inputs: [String: Input]
        /// The inputs changed within a second before the build started (by either time): a
        /// second edit within the same clock tick would keep their stamps, so ``made`` keeps
        /// their bytes' fingerprints.
        let recent: [String]
        /// The paths in order, each one's stamp, and the line ``write(to:prepared:)`` gives it
        /// when it has no fingerprint.
        let paths: [String]
        let stamps: [FileStamp]
        let lines: [String]

        init(_ stamps: Stamps, started: Date) {
            let since = Int(started.timeIntervalSince1970) - 1
            var inputs = [String: Input](minimumCapacity: stamps.count)
            var recent: [String] = []
            for (path, stamp) in stamps {
                if stamp.seconds >= since || stamp.changed / 1_000_000_000 >= since { recent.append(path) }
                inputs[path] = Input(stamp: stamp, hash: nil)
            }
            self.inputs = inputs
            self.recent = recent.sorted()
            paths = inputs.keys.sorted()
            self.stamps = paths.map { inputs[$0]!.stamp }
            lines = zip(paths, self.stamps).map { BuildManifest.line($0, Input(stamp: $1, hash: nil)) }
        }
    }

    /// The inputs' lines in path order: `prepared`'s line where it has the path with the same
    /// stamp and no fingerprint, else one made here. The lines are made on every core, as the
    /// output record's are (see ``OutputRecord/text``), and the paths sorted alone.
    func inputLines(_ prepared: PreparedInputs?) -> [String] {
        let inputs = self.inputs
        let sortedHere = { inputs.keys.sorted().parallelMap { Self.line($0, inputs[$0]!) } }
        guard let prepared, prepared.paths.count == inputs.count else { return sortedHere() }
        // The same number of paths, sorted and each one an input: the same paths.
        let lines = Array(prepared.paths.indices).parallelMap { index -> String? in
            let path = prepared.paths[index]
            guard let input = inputs[path] else { return nil }
            return input.hash == nil && input.stamp == prepared.stamps[index]
                ? prepared.lines[index] : Self.line(path, input)
        }
        return lines.allSatisfy { $0 != nil } ? lines.map { $0! } : sortedHere()
    }

    /// The line of the input at `path`: its fingerprint (or `-`), its stamp, its path.
    static func line(_ path: String, _ input: Input) -> String {
        "\(input.hash.map(\.description) ?? "-") \(input.stamp.text) \(path)"
    }
}
