import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import ReadingPreferences
import ReadingPreferencesStore

/// The settings page for web readers (Specs/Page.md): `GET /settings/{configurable}` (with
/// `?publication=ID` and the publication context in the query), and its own script and
/// stylesheet. It needs no token to load: the page takes the token from the URL's fragment, which
/// never reaches the server, and calls the API with it.
///
/// Every answer carries a strict `Content-Security-Policy` (no inline script or style, nothing
/// from elsewhere), with `frame-ancestors` from `--frame-ancestors` (none by default), and
/// `X-Content-Type-Options: nosniff` and `Referrer-Policy: no-referrer`.
public struct PageController: Sendable {
    /// The origins allowed to embed the page in a frame (`--frame-ancestors`).
    public let frameAncestors: [String]

    /// A page controller.
    ///
    /// - Parameter frameAncestors: The origins allowed to embed the page.
    public init(frameAncestors: [String]) {
        self.frameAncestors = frameAncestors
    }

    /// The page's own files under `/settings/assets/`: its stylesheet, its script (an ES module,
    /// `settings.js`, and the modules it imports, one per concern) and the preview's picture.
    static let assets: [String: (bytes: [UInt8], type: String)] = [
        "settings.css": (PackageResources.settings_css, "text/css; charset=utf-8"),
        "settings.js": (PackageResources.settings_js, javaScript),
        "page.js": (PackageResources.page_js, javaScript),
        "form.js": (PackageResources.form_js, javaScript),
        "controls.js": (PackageResources.controls_js, javaScript),
        "edits.js": (PackageResources.edits_js, javaScript),
        "conflicts.js": (PackageResources.conflicts_js, javaScript),
        "preview.js": (PackageResources.preview_js, javaScript),
        "live.js": (PackageResources.live_js, javaScript),
        "history.js": (PackageResources.history_js, javaScript),
        "passage.svg": (PackageResources.passage_svg, "image/svg+xml"),
    ]
    private static let javaScript = "text/javascript; charset=utf-8"

    func addRoutes(to router: Router<ServerContext>) {
        router.get("/settings/assets/:asset") { _, context in
            let name = try context.parameters.require("asset")
            guard let asset = Self.assets[name] else {
                throw Problem(
                    .notFound, "notFound",
                    "the settings page has no file \(name): "
                        + Self.assets.keys.sorted().joined(separator: ", "))
            }
            return page(Data(asset.bytes), type: asset.type)
        }
        // Browsers ask for it on every page of the origin.
        router.get("/favicon.ico") { _, _ in
            page(Data(PackageResources.favicon_ico), type: "image/x-icon", cache: "max-age=86400")
        }
        router.get("/settings/:configurable") { request, context in
            // What the page will ask the API for is checked now, as the API would (400, 404).
            _ = try Configurables.schema(named: try context.parameters.require("configurable"))
            _ = try request.publicationContext()
            _ = try request.ruleContext(deviceClass: try request.deviceClass())
            _ = try request.readiumCSSVersion()
            if let book = request.uri.queryParameters.get("publication"), StorageLocation.holdsNUL(book) {
                throw Problem(
                    .badRequest, "invalidIdentifier",
                    "the publication holds U+0000, which no identifier may hold")
            }
            return page(Data(PackageResources.settings_html), type: "text/html; charset=utf-8")
        }
    }

    /// Whether a source can go into the policy as it is: `'self'`, or an origin made only of
    /// the characters an origin has (nothing that could end the directive or the header).
    public static func isSafeSource(_ source: String) -> Bool {
        source == "'self'"
            || (!source.isEmpty
                && source.unicodeScalars.allSatisfy {
                    $0.isASCII
                        && (CharacterSet.alphanumerics.contains($0) || ":/.-[]".unicodeScalars.contains($0))
                })
    }

    /// The policy every answer of the page carries.
    var contentSecurityPolicy: String {
        let safe = frameAncestors.filter(Self.isSafeSource)
        let ancestors = safe.isEmpty ? "'none'" : safe.joined(separator: " ")
        return "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
            + "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'none'; "
            + "frame-ancestors \(ancestors)"
    }

    private func page(_ body: Data, type: String, cache: String = "no-cache") -> Response {
        var headers: HTTPFields = [
            .contentType: type, .contentSecurityPolicy: contentSecurityPolicy,
            .xContentTypeOptions: "nosniff", .cacheControl: cache,
        ]
        headers[HTTPField.Name("Referrer-Policy") ?? .via] = "no-referrer"
        return Response(
            status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: body)))
    }
}
