// The exercise of page 13 with the code it asks you to change deleted: the stream never starts the sensor, so its
// first reader waits for a reading that never comes.
import LessonKit

//: ## Yours to change

/// The sensor's readings as a stream.
@Sendable func heartRates(from sensor: HeartRateSensor) -> AsyncStream<Int> {
    AsyncStream { _ in }
}

await HeartRateReaders.check(heartRates(from:))
