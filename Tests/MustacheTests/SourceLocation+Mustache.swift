import Mustache

/// `SourceLocation` in these tests means the engine's, not Swift Testing's type of the same name.
typealias SourceLocation = Mustache.SourceLocation
