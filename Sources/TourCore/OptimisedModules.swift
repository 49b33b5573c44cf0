/// What a page's events and text pass through on their way to the screen lives in modules of their own, optimised even
/// in a debug build (see `Package.swift`): a run's record (RunModel) and a page's parsed text (PageText). Everything
/// that imports TourCore sees them as part of it.
@_exported import RunModel
@_exported import PageText
