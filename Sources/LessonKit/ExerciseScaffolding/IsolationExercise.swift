import Synchronization

// Page 12's exercise (`Exercises/12-Isolation`): the gallery screen whose refresh the learner moves off the main actor.
// The decode, the drawing call and the main actor's frames are here; the exercise, its solution and its test variants
// differ only in where the decode and the drawing run.

/// The gallery of page 12's exercise: its decode, its drawing call, and the screen that refreshes it while the main
/// actor draws frames.
public enum Gallery {
    /// The thumbnails the gallery decodes.
    static let names = ["coffee", "chelsea", "astronaut", "rocket", "camera", "horse"]
    /// Whether the screen should go on drawing frames.
    private static let drawing = Atomic<Bool>(false)

    /// Decodes the thumbnails, the span "decode thumbnails": 0.4 s of work for a core at 1×, on whatever thread calls
    /// it. Returns their names.
    public static func decode() -> [String] {
        trace("decode thumbnails") {
            _ = Simulated.compute(0.4)
            return names
        }
    }

    /// Shows `thumbnails` on the screen, the span "show thumbnails". It is meant for the main actor only and checks
    /// nothing: called elsewhere, it draws from the wrong thread.
    public static func show(_ thumbnails: [String]) {
        trace("show thumbnails") {
            Simulated.wait(0.02)
        }
        print("Showed \(thumbnails.count) thumbnails")
    }

    /// Runs `refresh` in the traced task "refresh" while a task on the main actor marks a "frame" every 25 ms at 1×,
    /// as a screen redraws, from before the refresh starts until it ends.
    @MainActor public static func run(refresh: @escaping @MainActor () async -> Void) async {
        drawing.store(true, ordering: .relaxed)
        let framesStarted = Gate()
        let frames = Task { @MainActor in
            framesStarted.open()
            while drawing.load(ordering: .relaxed) {
                mark("frame")
                try? await Task.sleep(for: .seconds(0.025 / Simulated.speed))
            }
        }
        await framesStarted.wait()
        await tracedTask("refresh") { await refresh() }.value
        drawing.store(false, ordering: .relaxed)
        await frames.value
    }
}
