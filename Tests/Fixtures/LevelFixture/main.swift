// A level program for the host's tests, not a level: it speaks the protocol of `LevelMessages.swift` honestly for a
// tiny lost update (two threads each load a counter and store it plus one; the fix takes a lock around both), its
// schedules computed over a model of the two threads, with no threads of its own. The environment variable
// LEVEL_FIXTURE makes its search and its play misbehave on demand (its description stays honest, so the host knows
// its name): `garbage` sends a line that is no document, `silent` never answers, `crash` aborts before answering,
// `crash-on-step` aborts when the first step of a game comes. Two are hostile levels as a real one could be:
// `endless-loop` plays T2 as a thread that, let go, loops forever between gates and never answers; `escape` plays an
// escaped thread (one the level did not start through its run) that passed a gate ungated before the first step, and
// T1 printing after each of its steps: work outside the gates, reported with every state.
@preconcurrency import Glibc
import Foundation
import PageProtocol

/// The two threads' shared state and where each stands.
struct Model {
    enum Operation { case lock, load, store, unlock }

    let fixed: Bool
    var count = 0
    var lockHolder: Int?
    /// Each thread's next operation, by index into `operations`.
    var next = [0, 0]
    /// Each thread's loaded value.
    var loaded: [Int?] = [nil, nil]
    var steps: [LevelStep] = []
    var ungated: [UngatedWork] = []

    var operations: [Operation] { fixed ? [.lock, .load, .store, .unlock] : [.load, .store] }

    /// The source line each operation stands on.
    static let lines: [Operation: Int] = [.lock: 9, .load: 10, .store: 11, .unlock: 12]

    func operation(of thread: Int) -> Operation? {
        next[thread] < operations.count ? operations[next[thread]] : nil
    }

    func isEnabled(_ thread: Int) -> Bool {
        guard let operation = operation(of: thread) else { return false }
        return operation != .lock || lockHolder == nil
    }

    var enabled: [Int] { [0, 1].filter(isEnabled) }
    var ended: Bool { enabled.isEmpty }

    var failure: LevelFailure? {
        guard ended else { return nil }
        if operation(of: 0) != nil || operation(of: 1) != nil {
            return LevelFailure(kind: .deadlock, message: "no thread can step")
        }
        return count == 2 ? nil : LevelFailure(kind: .lostUpdate, message: "count is \(count) after two increments; 2 was expected")
    }

    /// The step `thread` takes next, in words.
    func action(of thread: Int) -> String? {
        switch operation(of: thread) {
        case .lock?: "lock L"
        case .load?: "load count"
        case .store?: "store count = \((loaded[thread] ?? 0) + 1)"
        case .unlock?: "unlock L"
        case nil: nil
        }
    }

    mutating func step(_ thread: Int) {
        var action = self.action(of: thread)!
        switch operation(of: thread)! {
        case .lock: lockHolder = thread
        case .unlock: lockHolder = nil
        case .load:
            loaded[thread] = count
            action = "load count → \(count)"
        case .store: count = (loaded[thread] ?? 0) + 1
        }
        next[thread] += 1
        steps.append(LevelStep(thread: thread + 1, action: action))
    }

    func state(refusal: String? = nil) -> PlayState {
        let threads = [0, 1].map { thread in
            let operation = operation(of: thread)
            let status: LevelThreadState.Status = operation == nil ? .finished : isEnabled(thread) ? .enabled : .blocked
            return LevelThreadState(id: thread + 1, name: "T\(thread + 1)", status: status, line: operation.flatMap { Self.lines[$0] },
                                    next: action(of: thread), blockedOn: status == .blocked ? "lock L" : nil,
                                    holds: lockHolder == thread ? ["L"] : [])
        }
        var shared = [SharedValueState(name: "count", value: "\(count)")]
        if fixed { shared.append(SharedValueState(name: "L", value: lockHolder.map { "held by T\($0 + 1)" } ?? "free")) }
        return PlayState(threads: threads, shared: shared, steps: steps, ended: ended, failure: failure, refusal: refusal,
                         ungated: ungated.isEmpty ? nil : ungated)
    }
}

func send<Document: Encodable>(_ document: Document) {
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    print(String(decoding: try! encoder.encode(document), as: UTF8.self))
    fflush(stdout)
}

func misbehave(_ how: String?) {
    switch how {
    case "garbage"?:
        print("this is not a document")
        fflush(stdout)
        exit(0)
    case "silent"?:
        while true { pause() }
    case "crash"?:
        FileHandle.standardError.write(Data("Fatal error: the fixture crashes on demand\n".utf8))
        abort()
    default:
        break
    }
}

/// Every schedule with at most `bound` preemptions, depth first: the ends it reaches.
func explore(_ model: Model, running: Int?, preemptions: Int, bound: Int, ends: inout [Model]) {
    if model.ended {
        ends.append(model)
        return
    }
    for thread in model.enabled {
        let preempts = running != nil && running != thread && model.isEnabled(running!)
        guard preemptions + (preempts ? 1 : 0) <= bound else { continue }
        var next = model
        next.step(thread)
        explore(next, running: thread, preemptions: preemptions + (preempts ? 1 : 0), bound: bound, ends: &ends)
    }
}

let arguments = CommandLine.arguments.dropFirst()
let fixed = arguments.contains("--fixed")
func value(after option: String) -> String? {
    arguments.firstIndex(of: option).flatMap { arguments.index(after: $0) < arguments.endIndex ? arguments[arguments.index(after: $0)] : nil }
}
let misbehaviour = ProcessInfo.processInfo.environment["LEVEL_FIXTURE"]

switch arguments.first {
case "--describe":
    send(LevelDescription(name: "lost-update", version: 1, title: "The lost update", page: 8,
                          introduction: "Two threads add one to a counter.", hints: ["Let both load before either stores."],
                          goal: "count ends below 2", fix: "a lock around the load and the store", threads: ["T1", "T2"]))
case "--explore":
    misbehave(misbehaviour)
    var ends: [Model] = []
    let strategy: String
    let exhaustive: Bool
    if let count = value(after: "--random").flatMap(Int.init), let seed = value(after: "--seed").flatMap(UInt64.init) {
        var generator = seed &+ 0x9E37_79B9_7F4A_7C15
        for _ in 0..<count {
            var model = Model(fixed: fixed)
            while !model.ended {
                generator = generator &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                model.step(model.enabled[Int(generator >> 33) % model.enabled.count])
            }
            ends.append(model)
        }
        strategy = "\(count) random schedules, seed \(seed)"
        exhaustive = false
    } else {
        let bound = value(after: "--preemptions").flatMap(Int.init) ?? 2
        explore(Model(fixed: fixed), running: nil, preemptions: 0, bound: bound, ends: &ends)
        strategy = "every schedule with at most \(bound) preemption\(bound == 1 ? "" : "s")"
        exhaustive = true
    }
    let failing = ends.filter { $0.failure != nil }
    let shortest = failing.min { $0.steps.count < $1.steps.count }
    send(ExploreReport(level: "lost-update", version: 1, fixed: fixed, strategy: strategy, exhaustive: exhaustive,
                       schedules: ends.count, failing: failing.count,
                       failures: Dictionary(grouping: failing) { $0.failure!.kind.rawValue }.mapValues(\.count),
                       shortest: shortest.map { FailingSchedule(steps: $0.steps, failure: $0.failure!) }))
case "--play":
    if misbehaviour != "crash-on-step" { misbehave(misbehaviour) }
    var model = Model(fixed: fixed)
    if misbehaviour == "escape" { model.ungated.append(UngatedWork(thread: nil, afterStep: 0, what: "passed store count")) }
    send(model.state())
    while !model.ended, let line = readLine() {
        if misbehaviour == "crash-on-step" { misbehave("crash") }
        guard let number = Int(line.trimmingCharacters(in: .whitespaces)), (1...2).contains(number) else {
            send(model.state(refusal: "there is no thread \(line): the threads are 1 and 2"))
            continue
        }
        let thread = number - 1
        if model.operation(of: thread) == nil {
            send(model.state(refusal: "T\(number) has finished"))
        } else if !model.isEnabled(thread) {
            send(model.state(refusal: "T\(number) is blocked: it waits for lock L, which T\(model.lockHolder! + 1) holds"))
        } else if misbehaviour == "endless-loop" && number == 2 {
            // Let go, T2 never reaches its next gate.
            while true { pause() }
        } else {
            model.step(thread)
            if misbehaviour == "escape" && number == 1 {
                model.ungated.append(UngatedWork(thread: 1, afterStep: model.steps.count, what: "printed 'T1 was here'"))
            }
            send(model.state())
        }
    }
default:
    FileHandle.standardError.write(Data("usage: LevelFixture --describe | --explore ... | --play [--fixed]\n".utf8))
    exit(2)
}
