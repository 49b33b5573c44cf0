import Synchronization
import PageProtocol

/// The traced Swift task code runs in: the number LessonKit gave it, and the runtime's task it was given to.
///
/// It lives in a task-local, so a child task and a `Task { … }` inherit it; a span only takes it as its own task
/// when the runtime's current task is the one it was given to and that task's body has not ended: a plain
/// `Task { … }` started inside a traced task inherits the task-local but is another task, and its spans get none.
final class TracedTaskIdentity: Sendable {
    let number: Int
    /// The runtime's task, by address: compared, never dereferenced. A task's memory is only reused after it ended,
    /// and `ended` is set before its body returns, so an address equal to a live identity's is that task.
    private let task: UInt
    private let ended = Atomic<Bool>(false)

    init(number: Int, task: UInt) {
        self.number = number
        self.task = task
    }

    /// The traced task code runs in right now, or nil when it runs in no task or in one LessonKit did not announce.
    static var current: TracedTaskIdentity? {
        guard let identity = TracedTaskIdentity.inherited, !identity.ended.load(ordering: .acquiring),
              identity.task == currentTaskAddress else { return nil }
        return identity
    }

    func end() { ended.store(true, ordering: .releasing) }

    @TaskLocal static var inherited: TracedTaskIdentity?

    private static let nextNumber = Atomic<Int>(1)
    static func makeNumber() -> Int { nextNumber.add(1, ordering: .relaxed).oldValue }

    /// The address of the task running this code, 0 when none is.
    static var currentTaskAddress: UInt {
        // `UnsafeCurrentTask` is the task's reference alone (8 bytes), so its bits are the address; `hashValue` is a
        // seeded hash of it, which could collide.
        withUnsafeCurrentTask { task in task.map { unsafeBitCast($0, to: UInt.self) } ?? 0 }
    }
}

/// Runs `body` as the traced task `name`, in the task this is called from, which must be one that has just begun
/// and that LessonKit has not announced: an `async let`'s child, a task group's child, a `Task { … }`'s body.
/// The host sees the task start and end (`task` events) and every span inside it carries its number. Its parent is
/// the nearest traced task it descends from.
///
/// The task wrappers below use it; call it yourself for `async let`:
/// `async let photo = asTracedTask("download") { await download() }`.
public func asTracedTask<T>(_ name: String, isolation: isolated (any Actor)? = #isolation,
                            _ body: () async throws -> T) async rethrows -> T {
    try await runTraced(name, kind: .child, parent: TracedTaskIdentity.inherited?.number, body)
}

/// The number of the traced task that code runs in or descends from, for a task it starts: the task's parent.
private var startingTask: Int? { TracedTaskIdentity.inherited?.number }

private func runTraced<T>(_ name: String, kind: TaskKind, parent: Int?, isolation: isolated (any Actor)? = #isolation,
                          _ body: () async throws -> T) async rethrows -> T {
    let address = TracedTaskIdentity.currentTaskAddress
    precondition(address != 0, "the traced task \"\(name)\" runs outside any Swift task; start it at the beginning of a task's body")
    precondition(TracedTaskIdentity.current == nil,
                 "the traced task \"\(name)\" would run in task \(TracedTaskIdentity.current?.number ?? 0), already traced; start it at the beginning of a new task's body")
    let identity = TracedTaskIdentity(number: TracedTaskIdentity.makeNumber(), task: address)
    let session = LessonSession.shared
    session.emit(.task(number: identity.number, parent: parent, name: name, kind: kind, phase: .start))
    session.narrate("task \(identity.number) \(name) starts" + (parent.map { ", started from task \($0)" } ?? ""))
    defer {
        identity.end()
        session.emit(.task(number: identity.number, parent: parent, name: name, kind: kind, phase: .end))
        session.narrate("task \(identity.number) \(name) ends")
    }
    return try await TracedTaskIdentity.$inherited.withValue(identity) { try await body() }
}

/// `Task(name:) { … }`, traced: an unstructured task whose spans carry its number, with the task that started it as
/// its parent.
@discardableResult
public func tracedTask<Success: Sendable>(_ name: String, priority: TaskPriority? = nil,
                                          _ body: sending @escaping () async -> Success) -> Task<Success, Never> {
    let parent = startingTask
    return Task(name: name, priority: priority) { await runTraced(name, kind: .unstructured, parent: parent, body) }
}

/// `Task(name:) { … }` whose body throws, traced.
@discardableResult
public func tracedTask<Success: Sendable>(_ name: String, priority: TaskPriority? = nil,
                                          _ body: sending @escaping () async throws -> Success) -> Task<Success, any Error> {
    let parent = startingTask
    return Task(name: name, priority: priority) { try await runTraced(name, kind: .unstructured, parent: parent, body) }
}

/// `Task.detached(name:) { … }`, traced: it inherits nothing, but the trace names the task that started it.
@discardableResult
public func tracedDetachedTask<Success: Sendable>(_ name: String, priority: TaskPriority? = nil,
                                                  _ body: sending @escaping () async throws -> Success) -> Task<Success, any Error> {
    let parent = startingTask
    return Task.detached(name: name, priority: priority) { try await runTraced(name, kind: .detached, parent: parent, body) }
}

extension TaskGroup {
    /// `addTask(name:)`, traced: a child task of the group's task.
    public mutating func addTracedTask(_ name: String, priority: TaskPriority? = nil,
                                       _ body: sending @escaping @isolated(any) () async -> ChildTaskResult) {
        let parent = startingTask
        addTask(name: name, priority: priority) { await runTraced(name, kind: .child, parent: parent, body) }
    }
}

extension ThrowingTaskGroup {
    /// `addTask(name:)`, traced: a child task of the group's task.
    public mutating func addTracedTask(_ name: String, priority: TaskPriority? = nil,
                                       _ body: sending @escaping @isolated(any) () async throws -> ChildTaskResult) {
        let parent = startingTask
        addTask(name: name, priority: priority) { try await runTraced(name, kind: .child, parent: parent, body) }
    }
}
