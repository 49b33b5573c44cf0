@preconcurrency import Glibc
import CLinuxSystem
import Foundation
import Synchronization
import TourCore

/// A mark a fault test puts in the environment of what it starts (`TOUR_FAULT_MARKER=<uuid>`): every process a page
/// starts inherits it, so `/proc/*/environ` tells which of them are still alive, whatever they are called and
/// wherever they went (another session, another parent).
public struct FaultMarker: Sendable {
    public static let variable = "TOUR_FAULT_MARKER"
    public let value = UUID().uuidString

    public init() {}

    /// The entry to merge into a run's or a process's environment.
    public var environment: [String: String] { [Self.variable: value] }

    /// The processes carrying this marker that are still alive (zombies hold nothing and are not counted).
    public func livingProcesses() -> [pid_t] {
        PageLineage.processes(withEnvironmentEntry: "\(Self.variable)=\(value)")
    }

    /// Kills whatever still carries the marker: a failed test must not leave its processes behind for the next one.
    public func killLeftovers() {
        for _ in 0..<50 {
            let left = livingProcesses()
            if left.isEmpty { return }
            for pid in left { kill(pid, SIGKILL) }
            usleep(2_000)
        }
    }
}

/// Waits, without blocking a thread, until process `pid` has ended (exited or been killed; a zombie counts as ended),
/// through a pidfd, which becomes readable then. False if it was still alive after `seconds`.
public func processEnds(_ pid: pid_t, within seconds: Double) async -> Bool {
    let descriptor = pidfd_open(pid, 0)
    // ESRCH: no such process, it is gone already.
    guard descriptor >= 0 else { return errno == ESRCH }
    let watch = ExitWatch(descriptor: descriptor)
    return await withCheckedContinuation { continuation in
        watch.start(timeout: seconds) { continuation.resume(returning: $0) }
    }
}

/// One pidfd read source and its deadline; whichever comes first answers, once.
private final class ExitWatch: @unchecked Sendable {
    private let source: DispatchSourceRead
    private let answered = OnceFlag()

    init(descriptor: Int32) {
        source = DispatchSource.makeReadSource(fileDescriptor: descriptor, queue: .global())
        source.setCancelHandler { close(descriptor) }
    }

    func start(timeout: Double, answer: @escaping @Sendable (Bool) -> Void) {
        let finish: @Sendable (Bool) -> Void = { [self] ended in
            guard answered.claim() else { return }
            source.cancel()
            answer(ended)
        }
        source.setEventHandler { finish(true) }
        source.resume()
        DispatchQueue.global().asyncAfter(deadline: .now() + timeout) { finish(false) }
    }
}
