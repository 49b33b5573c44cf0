import Dispatch
import Synchronization

// Page 13's exercise (`Exercises/13-Streams`): two heart-rate sensors with a callback API, and the readers that read
// them through the learner's stream. The exercise, its solution and its test variants differ only in the function that
// makes the stream.

/// A heart-rate sensor with a callback API: once started, it calls back with a reading every 30 ms at 1×, on a serial
/// queue of its own, until it is stopped or, for a sensor with a battery, until its battery runs out.
///
/// Its marks are what the check reads: "chest strap reading N" for each reading, "chest strap stopped" on the thread
/// that stops it, and "wrist band battery empty" after a battery's last reading.
public final class HeartRateSensor: Sendable {
    public let name: String
    /// How many readings its battery lasts for; nil for a sensor that reads until it is stopped.
    private let battery: Int?

    private struct State {
        var timer: (any DispatchSourceTimer)?
        var readings = 0
        var stopped = false
        /// The harness waiting for the sensor to stop or to make `until` readings.
        var waiting: (until: Int, continuation: CheckedContinuation<Void, Never>)?
    }

    private let state = Mutex(State())

    init(_ name: String, battery: Int?) {
        self.name = name
        self.battery = battery
    }

    /// Starts the sensor: `onReading` gets each reading (beats a minute), one call at a time; for a sensor with a
    /// battery, `onEnd` is called once, after its last reading. Neither is called once `stop()` has returned.
    public func start(onReading: @escaping @Sendable (Int) -> Void, onEnd: @escaping @Sendable () -> Void) {
        let seconds = 0.03 / Simulated.speed
        state.withLock { state in
            let timer = DispatchSource.makeTimerSource(queue: DispatchQueue(label: name))
            timer.schedule(deadline: .now() + seconds, repeating: seconds, leeway: .nanoseconds(0))
            timer.setEventHandler { [self] in read(onReading: onReading, onEnd: onEnd) }
            timer.resume()
            state.timer = timer
        }
    }

    /// Stops the sensor: no reading comes after this returns. Marks "NAME stopped" on the calling thread.
    public func stop() {
        let waiting = state.withLock { state in
            state.timer?.cancel()
            state.stopped = true
            defer { state.waiting = nil }
            return state.waiting?.continuation
        }
        mark("\(name) stopped")
        waiting?.resume()
    }

    private func read(onReading: @Sendable (Int) -> Void, onEnd: @Sendable () -> Void) {
        let (reading, waiting) = state.withLock { state -> (Int?, CheckedContinuation<Void, Never>?) in
            guard !state.stopped else { return (nil, nil) }
            state.readings += 1
            guard let waiting = state.waiting, state.readings >= waiting.until else { return (state.readings, nil) }
            state.waiting = nil
            return (state.readings, waiting.continuation)
        }
        guard let reading else { return }
        mark("\(name) reading \(reading)")
        onReading(70 + reading % 7)
        waiting?.resume()
        guard reading == battery else { return }
        state.withLock { state in
            state.timer?.cancel()
            state.stopped = true
        }
        mark("\(name) battery empty")
        onEnd()
    }

    var isStopped: Bool { state.withLock { $0.stopped } }

    /// Suspends until the sensor is stopped, or until it has made `more` readings beyond those made so far.
    func stoppedOrReadings(_ more: Int) async {
        await withCheckedContinuation { continuation in
            let goesOn = state.withLock { state in
                if state.stopped { return true }
                state.waiting = (state.readings + more, continuation)
                return false
            }
            if goesOn { continuation.resume() }
        }
    }
}

/// The two sensors of page 13's exercise and the readers that read them through the learner's stream.
public enum HeartRateReaders {
    /// How many readings the chest strap's reader takes before the check cancels it.
    public static let readsBeforeCancel = 5
    /// How many readings the wrist band's battery lasts for.
    public static let wristBandBattery = 4

    /// Reads both sensors through `heartRates`: the chest strap until its fifth reading, then the check cancels its
    /// reader and waits until the sensor is stopped or has made three more readings (and then switches it off
    /// itself); then the wrist band, whose battery runs out after four readings, until its reader's loop ends.
    public static func check(_ heartRates: @escaping @Sendable (HeartRateSensor) -> AsyncStream<Int>) async {
        let chestStrap = HeartRateSensor("chest strap", battery: nil)
        let fifthRead = Gate()
        let chestReader = tracedTask("chest strap reader") {
            await trace("for await chest strap") {
                var count = 0
                for await rate in heartRates(chestStrap) {
                    count += 1
                    mark("reader got chest strap \(rate)")
                    if count == readsBeforeCancel { fifthRead.open() }
                }
            }
        }
        await fifthRead.wait()
        mark("the check cancels the chest strap reader")
        chestReader.cancel()
        await chestReader.value
        await chestStrap.stoppedOrReadings(3)
        if !chestStrap.isStopped {
            mark("the check switches the chest strap off")
            chestStrap.stop()
        }

        let wristBand = HeartRateSensor("wrist band", battery: wristBandBattery)
        await tracedTask("wrist band reader") {
            await trace("for await wrist band") {
                for await rate in heartRates(wristBand) {
                    mark("reader got wrist band \(rate)")
                }
                mark("wrist band reader's loop ends")
            }
        }.value
        print("Read the chest strap until it was cancelled, and the wrist band until its battery ran out")
    }
}
