/// How a command of `tour` ended, as its exit status: every command's, as `tour --help` documents them.
public enum ExitStatus: Int32, Sendable {
    /// The command did what was asked: the page ended as it said it would, the check or the pre-flight passed.
    case endedAsExpected = 0
    /// It ran, and ended otherwise: a crash, a stuck run, an exercise not passed yet, a talk's run that failed.
    case endedOtherwise = 1
    /// A usage mistake, said before anything ran: an unknown option, a wrong page, a wrong line in a talk's script.
    case usage = 2
    /// What the command needs could not start: no catalog, a page that does not compile, no progress file's place.
    case couldNotStart = 3
    /// It ran, but the file `--trace`, `--svg`, `--cast` or `--export` named could not be written.
    case traceNotWritten = 4
}
