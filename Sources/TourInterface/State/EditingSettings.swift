/// What the terminal layer knows about the edit loop that the model shows: which editor `e` opens.
public struct EditingSettings: Sendable {
    /// "nano", "vim -p"; nil when none was found.
    public var editor: String?
    /// Where the editor came from: "$VISUAL", "$EDITOR", or "found on PATH".
    public var editorOrigin: String
    var nextBuildID = 1

    public init(editor: String? = nil, editorOrigin: String = "") {
        self.editor = editor
        self.editorOrigin = editorOrigin
    }
}
