/*:
 # Test variant: page 13's exercise with only the first step done

 The stream stops its sensor when it ends, but nothing finishes it when the wrist band's battery runs out, so that
 reader waits for good, and the check must fail it.
 */
import LessonKit

//: ## Yours to change

/// The sensor's readings as a stream.
@Sendable func heartRates(from sensor: HeartRateSensor) -> AsyncStream<Int> {
    AsyncStream { continuation in
        continuation.onTermination = { _ in sensor.stop() }
        sensor.start(onReading: { rate in continuation.yield(rate) }, onEnd: {})
    }
}

await HeartRateReaders.check(heartRates(from:))
