/*:
 # Exercise: a sensor as a stream

 A heart-rate sensor has a callback API: `sensor.start(onReading:onEnd:)` calls `onReading` with a reading every
 30 ms at 1×, on a Dispatch queue of its own, until `sensor.stop()`; a sensor with a battery calls `onEnd` once,
 after its last reading, and reads no more. `heartRates(from:)` below bridges it into an `AsyncStream` that a task
 reads with `for await`. As written, it passes the readings on, and that is all.

 Your task, in two steps:

 1. When the stream ends (its reader cancelled, or the stream finished or dropped), stop the sensor: nobody reads it
    any more. The stream's continuation has a place for that.
 2. When a sensor's battery runs out, end the stream, so that its reader's `for await` ends instead of waiting for a
    reading that never comes.

 ## What the check looks at

 `tour check 13` (or `c` in the tutorial) runs this program and reads its trace, never what it prints. The check
 (`HeartRateReaders.check`, in LessonKit) reads two sensors through your function:

 - the chest strap, which reads until it is stopped: its reader takes five readings, then the check cancels the
   reader's task, and the sensor must be stopped then (the mark "chest strap stopped"), not before, and not left
   running (after three more readings the check switches it off itself, and says so);
 - the wrist band, whose battery runs out after four readings: its reader's loop must end (the mark "wrist band
   reader's loop ends").

 - note: A reader left waiting for a reading that never comes leaves the program stuck: the check stops it after a
   few seconds and says which span was still open.

 `tour hint 13` gives a hint; `tour solution 13` opens the reference solution once the check has passed, or after
 two hints.
 */
import LessonKit

//: ## Yours to change

/// The sensor's readings as a stream.
@Sendable func heartRates(from sensor: HeartRateSensor) -> AsyncStream<Int> {
    AsyncStream { continuation in
        sensor.start(onReading: { rate in continuation.yield(rate) }, onEnd: {})
    }
}

await HeartRateReaders.check(heartRates(from:))
