/// Waits until `done`, or a minute, whichever comes first: a lock that is not waited for fails
/// its test's expectations instead of hanging the tests. Each wait has a minute of its own, so
/// a test kept off the shared pool for a while by others does not find the next wait's time
/// used up.
func eventually(_ done: () -> Bool) async throws {
    let deadline = ContinuousClock.now + .seconds(60)
    while !done() && ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(5)) }
}
