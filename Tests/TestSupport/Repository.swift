import Foundation

/// The repository's root folder, found from this file's place in it (`Tests/TestSupport/`): one
/// definition for every test that reads a document, the page, the sources or the example files.
public let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()
