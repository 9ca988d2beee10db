import Dispatch
import Foundation

/// Runs a provider's async work from synchronous code (a session's
/// `submit`) and stops waiting at a deadline.
///
/// Contract: ``run(timeout:_:)`` returns the work's result if it finishes
/// within `timeout`; otherwise it cancels the work's task and returns
/// ``GenerationFailure/timeout`` at once, never later than the timeout
/// (plus scheduling). The work runs on its own dispatch-backed executor, not
/// on Swift's cooperative pool, so a caller that blocks a pool thread (a
/// test, an app's task) cannot starve it, and a provider that blocks its
/// thread cannot starve the caller.
public enum GenerationDeadline {
    public static func run<T: Sendable>(timeout: Duration, _ work: @escaping @Sendable () async throws -> T) -> Result<T, GenerationFailure> {
        let box = ResultBox<T>()
        let task: Task<Void, Never>
        if #available(macOS 15, iOS 18, *) {
            task = Task(executorPreference: GenerationExecutor.shared) { await box.fill(work) }
        } else {
            task = Task.detached { await box.fill(work) }
        }
        let seconds = Double(timeout.components.seconds) + Double(timeout.components.attoseconds) / 1e18
        if box.done.wait(timeout: .now() + seconds) == .timedOut {
            task.cancel()
            return .failure(.timeout)
        }
        return box.result ?? .failure(.timeout)
    }
}

/// Where a generation task's result lands; signalled once.
private final class ResultBox<T: Sendable>: @unchecked Sendable {
    let done = DispatchSemaphore(value: 0)
    private let lock = NSLock()
    private var stored: Result<T, GenerationFailure>?

    var result: Result<T, GenerationFailure>? { lock.withLock { stored } }

    func fill(_ work: @Sendable () async throws -> T) async {
        let outcome: Result<T, GenerationFailure>
        do {
            outcome = .success(try await work())
        } catch let failure as GenerationFailure {
            outcome = .failure(failure)
        } catch is CancellationError {
            outcome = .failure(.timeout)
        } catch {
            outcome = .failure(.transport("\(error)"))
        }
        lock.withLock { stored = outcome }
        done.signal()
    }
}

/// A task executor over a concurrent dispatch queue (threads outside
/// Swift's cooperative pool).
@available(macOS 15, iOS 18, *)
final class GenerationExecutor: TaskExecutor, @unchecked Sendable {
    static let shared = GenerationExecutor()
    private let queue = DispatchQueue(label: "reflect.generation", attributes: .concurrent)

    func enqueue(_ job: consuming ExecutorJob) {
        let unowned = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        queue.async { unowned.runSynchronously(on: executor) }
    }
}
