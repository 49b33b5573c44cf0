/// How a page and the host reach each other: the descriptor its events travel on, the format's version,
/// and the environment variables the host sets for the page (`docs/trace-format.md`).
public enum PageTransport {
    /// The file descriptor the host hands to every page for its events: a pipe beside stdout and stderr.
    public static let traceDescriptor: Int32 = 3
    /// The version of the line format written down in `docs/trace-format.md`, sent in `hello`'s `v`.
    public static let formatVersion = 1
}

/// The names of the environment variables that pass between the host and a page.
public enum PageEnvironment {
    /// The host's process id: a page started by the host dies with it; one whose parent is another process does not.
    public static let hostPID = "TOUR_HOST_PID"
    /// Knob settings as `name=value,name=value`, the environment's form of `--set`.
    public static let knobSettings = "TOUR_SET"
    /// The speed factor, the environment's form of `--speed`.
    public static let speed = "TOUR_SPEED"
    /// The seed of the page's random delays and choices, the environment's form of `--seed`.
    public static let seed = "TOUR_SEED"
    /// `1` when the host sends scroll commands on the page's standard input.
    public static let stdinCommands = "TOUR_STDIN_COMMANDS"
    /// The tutorial's assets folder, for a page binary moved away from its checkout.
    public static let assets = "TOUR_ASSETS"
}
