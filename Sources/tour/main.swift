@preconcurrency import Glibc
import TourCommandLine

/// `tour`: a thin front over TourCommandLine: parses the arguments, runs the command, exits with its status.
setvbuf(stdout, nil, _IOLBF, 0)

let command: TourCommand
do {
    command = try TourCommand.parse(Array(CommandLine.arguments.dropFirst()))
} catch {
    CommandDispatch.fail("\(error)")
}
exit(CommandDispatch.execute(command))
