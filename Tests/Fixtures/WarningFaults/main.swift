// Small fault pages, one per warning the timeline raises (TourCore's TraceWarnings), chosen by the `fault` knob.
// Each does the one thing its warning names, and nothing else that would raise another; their tests are in
// Tests/TourCoreTests/TraceWarningsTests.swift.
import Foundation
import LessonKit

enum Fault: String, CaseIterable {
    /// A dependent runs to its end although its dependency was cancelled, and does not look.
    case cancelledDependency
    /// Two operations wait for each other; the watchdog ends the run.
    case dependencyCycle
    /// An asynchronous operation that never calls finish(), left behind as the page exits.
    case neverFinished
    /// The main thread sleeps inside a span of its own, sending nothing, for 300 ms.
    case mainThreadBlocked
    /// Twice as many threads compute at once as the machine has cores, for 300 ms.
    case oversubscribed
}

let fault = knob("fault", default: Fault.cancelledDependency, "which fault to commit")

/// An operation that starts its work in `start()` and says when it is executing, and never says it finished.
final class ForgetfulOperation: Operation, @unchecked Sendable {
    override var isAsynchronous: Bool { true }
    override var isExecuting: Bool { true }
    override func start() {
        reportState(self, .executing)
    }
}

switch fault {
case .cancelledDependency:
    let load = ObservedOperation(name: "load")
    let filter = ObservedOperation(name: "filter")
    filter.addDependency(load)
    load.cancel()
    let queue = OperationQueue()
    queue.name = "fault"
    queue.addOperations([load, filter], waitUntilFinished: true)
case .dependencyCycle:
    expectEnding(.stuck, because: "compress and upload each wait for the other")
    let compress = ObservedOperation(name: "compress")
    let upload = ObservedOperation(name: "upload")
    compress.addDependency(upload)
    upload.addDependency(compress)
    let queue = OperationQueue()
    queue.name = "cycle"
    queue.addOperations([compress, upload], waitUntilFinished: false)
    trace("waitUntilAllOperationsAreFinished") { queue.waitUntilAllOperationsAreFinished() }
case .neverFinished:
    let forgetful = ForgetfulOperation()
    forgetful.name = "forgetful upload"
    let queue = OperationQueue()
    queue.name = "uploads"
    queue.addOperation(forgetful)
    // Long enough for the queue to start it; the page then exits without waiting.
    Thread.sleep(forTimeInterval: 0.05)
case .mainThreadBlocked:
    trace("decode on main") { Thread.sleep(forTimeInterval: 0.3) }
case .oversubscribed:
    let threads = 2 * ProcessInfo.processInfo.activeProcessorCount
    let done = DispatchGroup()
    for index in 0..<threads {
        done.enter()
        Thread {
            trace("compute \(index)") {
                let end = DispatchTime.now().uptimeNanoseconds + 300_000_000
                var sum = 0.0
                while DispatchTime.now().uptimeNanoseconds < end { for value in 0..<1_000 { sum += Double(value).squareRoot() } }
                if sum < 0 { print(sum) }
            }
            done.leave()
        }.start()
    }
    done.wait()
}
