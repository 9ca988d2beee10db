import Testing

extension Trait where Self == TimeLimitTrait {
    /// A guard against a hang (a loop the sandbox fails to stop, a process
    /// that never exits), never a performance assertion: budgets, deadlines
    /// and "within N seconds" are asserted inside the tests.
    ///
    /// Swift Testing starts a test's clock when the test is scheduled, so the
    /// time it spends queued for a thread of the shared pool counts too. On a
    /// loaded 2-core machine, a one-line test waited 8 minutes for a thread,
    /// so the guard is generous: it only ends a run that would never finish.
    static var hangGuard: Self { .timeLimit(.minutes(10)) }
}
