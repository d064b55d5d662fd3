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
    /// stamp and no fingerprint, else one made here (its paths are sorted and each once, being
    /// a table's keys sorted).
    func inputLines(_ prepared: PreparedInputs?) -> [String] {
        inputs.linesInKeyOrder(presorted: prepared?.paths) { place, path, input in
            if let prepared, let place, input.hash == nil, input.stamp == prepared.stamps[place] {
                return prepared.lines[place]
            }
            return Self.line(path, input)
        }
    }

    /// The line of the input at `path`: its fingerprint (or `-`), its stamp, its path.
    static func line(_ path: String, _ input: Input) -> String {
        "\(input.hash.map(\.description) ?? "-") \(input.stamp.text) \(path)"
    }
}
