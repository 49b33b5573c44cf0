import PageProtocol

/// The search over a level's schedules, in one process (as loom does): each schedule is a fresh run of the level's
/// body on fresh threads, driven gate by gate, judged, and joined before the next begins.
struct Exploration {
    /// How the next step is picked.
    enum Strategy {
        /// Every schedule with at most this many preemptions, depth first (CHESS). A preemption is a switch away from
        /// a thread that could still step; a switch because it blocked or finished is free.
        case boundedPreemptions(Int)
        /// This many schedules by probabilistic concurrency testing (PCT) from this seed, with `depth` − 1 priority
        /// change points.
        case random(count: Int, seed: UInt64, depth: Int)
    }

    /// A bound on the schedules one search runs, so a level with too many for its bound still answers.
    static let scheduleCap = 50_000

    let level: Level
    let fixed: Bool

    /// One finished schedule: its steps and its failure, if it failed.
    struct Outcome {
        let steps: [LevelStep]
        let failure: LevelFailure?
        /// Set when a thread escaped the watchdog: nothing more can be run in this process.
        let runaway: String?
    }

    /// Runs one schedule, `choose` picking among the enabled threads at each step (it is also told the thread that
    /// took the step before).
    func runOnce(_ choose: (_ enabled: [Int], _ last: Int?) -> Int) -> Outcome {
        let driver = LevelDriver(level, fixed: fixed)
        while !driver.ended {
            driver.step(choose(driver.enabled, driver.lastStepped))
        }
        return Outcome(steps: driver.steps, failure: driver.failure, runaway: driver.runaway)
    }

    func explore(_ strategy: Strategy) -> ExploreReport {
        var tally = Tally()
        let exhaustive: Bool
        let words: String
        switch strategy {
        case .boundedPreemptions(let bound):
            exhaustive = searchBounded(bound) { tally.add($0) }
            words = "every schedule with at most \(bound) preemption\(bound == 1 ? "" : "s")"
        case .random(let count, let seed, let depth):
            searchPCT(count: count, seed: seed, depth: depth) { tally.add($0) }
            exhaustive = false
            words = "\(count) random schedule\(count == 1 ? "" : "s") (PCT, depth \(depth)), seed \(seed)"
        }
        return ExploreReport(level: level.description.name, version: level.description.version, fixed: fixed,
                             strategy: words, exhaustive: exhaustive && tally.runaway == nil, schedules: tally.schedules,
                             failing: tally.failing, failures: tally.failures, shortest: tally.shortest)
    }

    /// What the search found so far.
    struct Tally {
        var schedules = 0
        var failing = 0
        var failures: [String: Int] = [:]
        var shortest: FailingSchedule?
        var runaway: String?

        /// Counts `outcome`; false when the search must stop (a runaway thread).
        mutating func add(_ outcome: Outcome) -> Bool {
            schedules += 1
            if let failure = outcome.failure {
                failing += 1
                failures[failure.kind.rawValue, default: 0] += 1
                if shortest == nil || outcome.steps.count < shortest!.steps.count {
                    shortest = FailingSchedule(steps: outcome.steps, failure: failure)
                }
            }
            runaway = outcome.runaway
            return runaway == nil
        }
    }

    /// A choice the depth-first search made, and the choices left to try there within the bound.
    struct ChoicePoint {
        var chosen: Int
        var untried: [Int]
    }

    /// The cost of picking `thread` after `last`, among `enabled`: one preemption if `last` could have gone on.
    static func preemptionCost(of thread: Int, after last: Int?, enabled: [Int]) -> Int {
        guard let last, thread != last, enabled.contains(last) else { return 0 }
        return 1
    }

    /// Every schedule with at most `bound` preemptions, depth first: each run replays the choices of the path so far,
    /// then goes on without preempting (the last thread while it can, else the lowest numbered); each new choice point
    /// keeps the other enabled threads the bound still allows. Returns whether the search ran to its end.
    func searchBounded(_ bound: Int, _ record: (Outcome) -> Bool) -> Bool {
        var path: [ChoicePoint] = []
        var schedules = 0
        while true {
            var depth = 0
            var preemptions = 0
            let outcome = runOnce { enabled, last in
                let choice: Int
                if depth < path.count {
                    choice = path[depth].chosen
                    precondition(enabled.contains(choice), "the level is not deterministic: T\(choice) cannot step where it could before")
                } else {
                    choice = last.flatMap { enabled.contains($0) ? $0 : nil } ?? enabled[0]
                    let untried = enabled.filter {
                        $0 != choice && preemptions + Self.preemptionCost(of: $0, after: last, enabled: enabled) <= bound
                    }
                    path.append(ChoicePoint(chosen: choice, untried: untried))
                }
                preemptions += Self.preemptionCost(of: choice, after: last, enabled: enabled)
                depth += 1
                return choice
            }
            schedules += 1
            guard record(outcome) else { return false }
            path.removeLast(path.count - depth)
            while let last = path.last, last.untried.isEmpty { path.removeLast() }
            guard !path.isEmpty else { return true }
            if schedules >= Self.scheduleCap { return false }
            path[path.count - 1].chosen = path[path.count - 1].untried.removeFirst()
        }
    }

    /// PCT: each run gives the threads random distinct priorities and picks `depth` − 1 random steps (among as many as
    /// the longest run so far took) where the running thread's priority drops below all others; the highest-priority
    /// enabled thread always steps. The same seed draws the same schedules.
    func searchPCT(count: Int, seed: UInt64, depth: Int, _ record: (Outcome) -> Bool) {
        var random = PageRandom(stream: "pct", seed: seed)
        let threads = level.description.threads.count
        var longest = 1
        for _ in 0..<count {
            var priorities = Array(depth..<(depth + threads))
            priorities.shuffle(using: &random)
            var changes: [Int: Int] = [:]
            for lowered in (1..<max(depth, 1)).reversed() {
                changes[Int.random(in: 1...longest, using: &random)] = lowered
            }
            var step = 0
            let outcome = runOnce { enabled, _ in
                step += 1
                var pick = enabled.max { priorities[$0 - 1] < priorities[$1 - 1] }!
                if let lowered = changes[step] {
                    priorities[pick - 1] = lowered
                    pick = enabled.max { priorities[$0 - 1] < priorities[$1 - 1] }!
                }
                return pick
            }
            longest = max(longest, outcome.steps.count)
            guard record(outcome) else { return }
        }
    }
}
