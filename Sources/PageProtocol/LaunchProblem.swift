/// A setting for a page run that cannot be honoured (`--set`, `--speed`, `TOUR_SET`, `TOUR_SPEED`), with the message
/// that names what was wrong and what would be right. The host shows it as a usage mistake; a page refuses to run with it.
public struct LaunchProblem: Error, Equatable, Sendable, CustomStringConvertible {
    public let description: String

    public init(_ description: String) {
        self.description = description
    }
}
