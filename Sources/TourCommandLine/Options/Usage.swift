/// `tour --help` and each command's own usage (`tour run --help`), made from the commands' forms and the option table:
/// an option declared in `CommandOption.all` is in both, and nowhere else by hand.
extension TourCommand {
    /// The top-level usage. `pageCount` is the catalog's number of pages, for the range of page numbers; nil when the
    /// catalog could not be read, and the usage is printed without it.
    public static func usage(pageCount: Int?) -> String {
        var lines = [
            "ConcurrencyTour: learn concurrency in Swift by running it, in two parts: Operations and Dispatch",
            "(Operation, OperationQueue and Grand Central Dispatch), then Swift Concurrency (tasks, task groups, actors,",
            "isolation, streams and cancellation, and what happens when the thread pool runs dry).",
        ]
        for group in CommandName.Group.allCases {
            lines += ["", group.heading]
            for command in CommandName.allCases where command.group == group {
                for form in command.forms { lines += Usage.row(form.synopsis, form.summary, column: Usage.commandColumn) }
            }
        }
        lines += Usage.row("tour <command> --help", "the command's own usage and options", column: Usage.commandColumn)
        lines += Usage.row("tour --help | --version", "", column: Usage.commandColumn)
        lines += [""] + Usage.wrap(Usage.pageSentence(pageCount) + " Every command here, and every one tour names in its messages, "
                                   + "also runs as swift run tour ... from the checkout; README.md (\"Run it\") shows how to make tour "
                                   + "a command of your shell.", width: Usage.width)
        lines += ["", "Options (tour alone is the full-screen tutorial; the commands that take each are in brackets):"]
        for option in CommandOption.all {
            let commands = option.commands.map { $0 == .tutorial ? "tour" : $0.rawValue }.joined(separator: ", ")
            lines += Usage.row(option.synopsis, "\(option.help) [\(commands)]", column: Usage.optionColumn)
        }
        lines += [""] + Usage.wrap(CommandName.runExitStatus, width: Usage.width)
        return lines.joined(separator: "\n")
    }

    /// `command`'s own usage: its forms, what a page is if it takes one, its options from the table, and its footer.
    public static func usage(of command: CommandName, pageCount: Int?) -> String {
        if command == .tutorial { return usage(pageCount: pageCount) }
        var lines = ["Usage:"]
        for form in command.forms { lines += Usage.row(form.synopsis, form.summary, column: Usage.commandColumn) }
        if command.takesPage { lines += [""] + Usage.wrap(Usage.pageSentence(pageCount), width: Usage.width) }
        let options = CommandOption.taken(by: command)
        lines += ["", options.isEmpty ? "Options: none but --help." : "Options:"]
        for option in options { lines += Usage.row(option.synopsis, option.help, column: Usage.optionColumn) }
        if !options.isEmpty { lines += Usage.row("-h, --help", "this usage", column: Usage.optionColumn) }
        if let footer = command.footer { lines += [""] + Usage.wrap(footer, width: Usage.width) }
        return lines.joined(separator: "\n")
    }
}

/// The usage's layout: rows of a name and its description, wrapped to the width of a terminal.
enum Usage {
    /// The text's width in columns.
    static let width = 116
    /// Where a command's description starts.
    static let commandColumn = 32
    /// Where an option's description starts.
    static let optionColumn = 23

    /// "<page> is a page's number in tour list (1-14), or a name …": the range when the catalog gave the count.
    static func pageSentence(_ pageCount: Int?) -> String {
        let range = pageCount.map { " (1-\($0))" } ?? ""
        return "<page> is a page's number in tour list\(range), or a name such as operation, queue, in-practice, task-groups."
    }

    /// `name` indented by two, then `description` from `column` on, wrapped; a name too wide for its column puts the
    /// description two spaces after it.
    static func row(_ name: String, _ description: String, column: Int) -> [String] {
        let lead = "  " + name
        let start = lead.count + 2 <= column ? String(repeating: " ", count: column - lead.count) : "  "
        let first = lead + start
        guard !description.isEmpty else { return [lead] }
        let wrapped = wrap(description, width: width - column, firstWidth: width - first.count)
        return [first + wrapped[0]] + wrapped.dropFirst().map { String(repeating: " ", count: column) + $0 }
    }

    /// `text`'s words in lines of at most `width` columns (`firstWidth` for the first); a longer word has a line of its own.
    static func wrap(_ text: String, width: Int, firstWidth: Int? = nil) -> [String] {
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ") {
            let limit = lines.isEmpty ? (firstWidth ?? width) : width
            if !line.isEmpty && line.count + 1 + word.count > limit {
                lines.append(line)
                line = String(word)
            } else {
                line += line.isEmpty ? String(word) : " " + word
            }
        }
        return lines + [line]
    }
}
