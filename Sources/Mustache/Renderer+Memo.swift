/// Partials rendered with an object that keeps renderings (``RenderMemo``): recorded the
/// first time, written again from the record after that.
///
/// A partial's bytes are a function of its template (and the library's other templates),
/// the values on the context stack, whether it starts at the start of a line, the
/// indentation it was included at and the blocks passed down (kept renderings are used only
/// when none are). Lookups that stay at or above the object's stack frame read the object or
/// what the partial pushed from it; the others (escapes) are noted with what they found, and
/// checked again before a record is used. Indentation is left out of the record and written
/// where it was, so one record serves every indentation but none.
extension Renderer {
    /// The kept renderings of the object on top of the stack, unless a partial with that
    /// object is being recorded already (its own partials are part of that record).
    /// (Unretained: the object on the stack holds it.)
    func keptRenderings() -> Unmanaged<RenderMemo>? {
        guard let top = objects[objects.count - 1],
            let memo = top._withUnsafeGuaranteedRef({ $0.memo.map(Unmanaged.passUnretained) })
        else { return nil }
        guard !recordings.isEmpty else { return memo }
        let object = ObjectIdentifier(top.takeUnretainedValue())
        return recordings.contains { $0.object == object } ? nil : memo
    }

    /// Renders `program` as a partial with the object on top of the stack: from its record
    /// when one applies, otherwise rendered and recorded.
    mutating func renderKept(_ program: Program, _ memo: Unmanaged<RenderMemo>) throws(TemplateError) {
        let replayed = memo._withUnsafeGuaranteedRef { memo in
            memo.withEntry(
                library: library, program: program, startsAtLineStart: atLineStart, indented: !indentation.isEmpty
            ) { replay($0) }
        }
        if replayed == true { return }
        let key = MemoKey(
            library: library, program: program, startsAtLineStart: atLineStart, indented: !indentation.isEmpty)
        let floor = stack.count - 1
        let recording = MemoRecording(
            object: ObjectIdentifier(objects[floor]!.takeUnretainedValue()), floor: floor, start: output.count,
            baseLength: indentation.count, resets: resets)
        // What the rendering counts against the limits is measured from here: steps, and the
        // deepest levels (kept apart from those reached outside it, and joined back after).
        let (startSteps, startDepth, startSites) = (steps, depth, sites.count)
        let outer = (deepest, deepestSites)
        (deepest, deepestSites) = (depth, sites.count)
        recordings.append(recording)
        let outerFloor = recordFloor
        recordFloor = floor
        defer {
            recordings.removeLast()
            recordFloor = outerFloor
            (deepest, deepestSites) = (Swift.max(outer.0, deepest), Swift.max(outer.1, deepestSites))
        }
        try render(program, 0..<program.ops.count)
        guard overflow == nil, recording.keepable else { return }
        memo.takeUnretainedValue().store(
            MemoEntry(
                key: key, bytes: recordedBytes(recording), breaks: recording.breaks, endsAtLineStart: atLineStart,
                steps: steps - startSteps, depth: deepest - startDepth, sites: deepestSites - startSites,
                escapes: recording.escapes))
    }

    /// The bytes written since `recording` started, without its indentation at its breaks.
    private func recordedBytes(_ recording: MemoRecording) -> [UInt8] {
        output.withBytes { written in
            let base = recording.baseLength
            var bytes: [UInt8] = []
            bytes.reserveCapacity(written.count - recording.start - recording.breaks.count * base)
            var from = recording.start
            for (index, offset) in recording.breaks.enumerated() {
                let at = recording.start + Int(offset) + index * base
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: written[from..<at]))
                from = at + base
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: written[from...]))
            return bytes
        }
    }

    /// Writes a record in place of rendering, when every escape finds what it found then and
    /// no limit would stop the rendering; false (nothing written) otherwise.
    private mutating func replay(_ entry: MemoEntry) -> Bool {
        let length = entry.bytes.count + entry.breaks.count * indentation.count
        guard steps + entry.steps <= limits.steps, depth + entry.depth <= limits.nesting,
            sites.count + entry.sites <= limits.partialDepth, output.count + length <= limits.outputBytes
        else { return false }
        let floor = stack.count - 1
        var frames: [Int] = []
        for escape in entry.escapes {
            let found = escape.parts.withUnsafeBufferPointer { search($0[...], from: floor - 1, downTo: 0) }
            let value = found.place.map { place in place.holder._withUnsafeGuaranteedRef { $0.value(at: place.index) } }
            guard escape.matches(value) else { return false }
            frames.append(found.frame)
        }
        // The escapes are the enclosing records' lookups too, where they leave those.
        for (escape, frame) in zip(entry.escapes, frames) {
            for recording in recordings where recording.floor > frame { recording.escapes.append(escape) }
        }
        steps += entry.steps
        deepest = Swift.max(deepest, depth + entry.depth)
        deepestSites = Swift.max(deepestSites, sites.count + entry.sites)
        entry.bytes.withUnsafeBufferPointer { bytes in
            var from = 0
            for offset in entry.breaks {
                output.append(UnsafeBufferPointer(rebasing: bytes[from..<Int(offset)]))
                writeIndentation()
                from = Int(offset)
            }
            output.append(UnsafeBufferPointer(rebasing: bytes[from...]))
        }
        atLineStart = entry.endsAtLineStart
        return true
    }

    /// Finds a name below the innermost record's object, noting it as an escape in every
    /// record whose object it reached below.
    @inline(never)
    func locateOutside(
        _ parts: Slice<UnsafeBufferPointer<Name.Key>>, below floor: Int
    ) -> (holder: Unmanaged<ObjectStorage>, index: Int)? {
        let found = search(parts, from: floor - 1, downTo: 0)
        let value = found.place.map { place in place.holder._withUnsafeGuaranteedRef { $0.value(at: place.index) } }
        let escaped = recordings.lazy.filter { $0.floor > found.frame }
        if let what = MemoEscape.found(value) {
            let escape = MemoEscape(parts: Array(parts), found: what)
            for recording in escaped { recording.escapes.append(escape) }
        } else {
            for recording in escaped { recording.keepable = false }
        }
        return found.place
    }

    /// Notes where indentation is about to be written, in each record it holds the
    /// indentation of (those started under as many resets; none when it had no indentation).
    func noteIndentation() {
        let written = output.count
        for recording in recordings where recording.baseLength > 0 && recording.resets == resets {
            let offset = written - recording.start - recording.breaks.count * recording.baseLength
            recording.breaks.append(Int32(offset))
        }
    }
}
