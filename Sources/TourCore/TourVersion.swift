import PageProtocol

/// The version `tour --version` reports.
public enum TourVersion {
    public static let current = "0.1.0"
    /// The trace channel format this host reads (`docs/trace-format.md`).
    public static let traceFormat = PageTransport.formatVersion
}
