/// What drawing keeps between frames so a frame costs only what changed: page layouts, the timeline's painted bars and
/// queue rows, and the run's warnings.
///
/// Owned by the model, one per interface rather than one per process, so two models (two tests, two sizes) never
/// share or evict each other's entries. A class: the copies of a model that updates and frames make share it, and
/// each cache checks that what it holds was made from the state it is asked about.
final class RenderCaches: Sendable {
    let pageLayouts = PageLayoutCache()
    let spans = SpanRaster()
    let queueRows = QueueRows()
    let warnings = WarningsCache()
}
