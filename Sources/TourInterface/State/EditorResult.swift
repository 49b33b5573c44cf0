/// How a visit to the editor ended, as the terminal layer reports it.
public enum EditorResult: Equatable, Sendable {
    /// The editor exited with status 0; a saved change arrives separately, through the source watcher.
    case closed
    /// The editor ran and exited with a failure status (or was killed by a signal).
    case failed(editor: String, status: Int32)
    /// No editor could be started: `editor` (from `origin`) is not a program here, or nil when none was found at all.
    case notFound(editor: String?, origin: String)
    /// The original could not be kept before the first edit, so `x` cannot undo this edit.
    case couldNotKeepOriginal(reason: String)
}
