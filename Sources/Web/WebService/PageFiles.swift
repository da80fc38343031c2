import Basics
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The page's files, read once at start from the page folder, each served at one path and no
/// other: the web view serves exactly these, never a path a request makes up, and no folder
/// listing.
public struct PageFiles: Sendable {
    public struct File: Sendable {
        public var contentType: String
        public var bytes: Data
    }

    /// Each path the web view serves, the file behind it and its type.
    public static let routes: [(path: String, file: String, contentType: String)] = [
        ("/", "index.html", "text/html; charset=utf-8"),
        ("/board.js", "board.js", "text/javascript; charset=utf-8"),
        ("/board.css", "board.css", "text/css; charset=utf-8"),
        ("/icon.svg", "icon.svg", "image/svg+xml"),
        // What a phone needs to put the page on its home screen (docs/WEB.md): the manifest, and
        // the icon as PNGs for launchers that take no SVG (made from icon.svg by browser/make_icons.py).
        ("/manifest.webmanifest", "manifest.webmanifest", "application/manifest+json"),
        ("/icon-192.png", "icon-192.png", "image/png"),
        ("/icon-512.png", "icon-512.png", "image/png"),
    ]

    public let folder: String
    public let files: [String: File]

    /// A page file that cannot be read, named with the reason.
    public struct Missing: Error, Sendable, Hashable, CustomStringConvertible {
        public var path: String
        public var reason: String
        public var description: String { "the page's file \(path): \(reason); check --page (the page's folder)" }
    }

    /// Reads every file of ``routes`` from `folder`; one that cannot be read is an error naming it.
    public init(folder: String) throws(Missing) {
        self.folder = folder
        var files: [String: File] = [:]
        for route in Self.routes {
            let path = folder + "/" + route.file
            do {
                files[route.path] = File(contentType: route.contentType, bytes: Data(try TextFile.readBytes(path)))
            } catch {
                throw Missing(path: path, reason: error.reason)
            }
        }
        self.files = files
    }
}
