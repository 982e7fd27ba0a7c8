import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import ReadingPreferences

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

    func addRoutes(to router: Router<ServerContext>) {
        router.get("/settings/assets/settings.js") { _, _ in
            page(Data(PackageResources.settings_js), type: "text/javascript; charset=utf-8")
        }
        router.get("/settings/assets/live.js") { _, _ in
            page(Data(PackageResources.live_js), type: "text/javascript; charset=utf-8")
        }
        router.get("/settings/assets/settings.css") { _, _ in
            page(Data(PackageResources.settings_css), type: "text/css; charset=utf-8")
        }
        router.get("/settings/:configurable") { request, context in
            // What the page will ask the API for is checked now, as the API would (400, 404).
            _ = try Configurables.schema(named: try context.parameters.require("configurable"))
            _ = try request.publicationContext()
            if let book = request.uri.queryParameters.get("publication"), book.utf8.contains(0) {
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

    private func page(_ body: Data, type: String) -> Response {
        var headers: HTTPFields = [
            .contentType: type, .contentSecurityPolicy: contentSecurityPolicy,
            .xContentTypeOptions: "nosniff", .cacheControl: "no-cache",
        ]
        headers[HTTPField.Name("Referrer-Policy") ?? .via] = "no-referrer"
        return Response(
            status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: body)))
    }
}
