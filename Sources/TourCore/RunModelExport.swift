/// A run's record (`RunRecord` and what it is made of) lives in a module of its own, optimised even in a debug build;
/// everything that imports TourCore sees it as part of TourCore.
@_exported import RunModel
