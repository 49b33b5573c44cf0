/*:
 # Solution: a sensor as a stream

 `onTermination` stops the sensor whichever way the stream ends: the runtime calls it once, on the thread that ended
 the stream (here the check's, as it cancels the reader, or the sensor's own, after `finish()`). `onEnd` finishes the
 stream, so its reader gets the readings already buffered and then leaves its `for await`.
 */
import LessonKit

//: ## Yours to change

/// The sensor's readings as a stream.
@Sendable func heartRates(from sensor: HeartRateSensor) -> AsyncStream<Int> {
    AsyncStream { continuation in
        continuation.onTermination = { _ in sensor.stop() }
        sensor.start(onReading: { rate in continuation.yield(rate) }, onEnd: { continuation.finish() })
    }
}

await HeartRateReaders.check(heartRates(from:))
